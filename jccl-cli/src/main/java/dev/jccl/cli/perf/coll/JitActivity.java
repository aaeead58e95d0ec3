package dev.jccl.cli.perf.coll;

import java.io.IOException;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * How busy this JVM's JIT compilers have been. A timed loop that starts while the compilers still
 * work measures two things at once: the interpreted or half-compiled data path, and compiler threads
 * taking cores from the ranks. On a host with no spare core the second is the larger; both end when
 * compiling does.
 *
 * <p>On Linux the figure is the compiler threads' own run time, which the kernel keeps per thread in
 * nanoseconds ({@code /proc/self/task/N/schedstat}), so a compile still running counts as it runs.
 * The JVM's total compile time (elsewhere) only grows when a compile finishes: measured on 2 busy
 * cores, a C2 recompile after a deoptimisation ran for about 350 ms, and batches timed meanwhile
 * looked quiet while the reduce kernel ran 3-10x slow in C1-compiled code.
 */
final class JitActivity {
    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();
    private static final boolean MONITORED = JIT != null && JIT.isCompilationTimeMonitoringSupported();
    private static final Path TASKS = Path.of("/proc/self/task");
    /** HotSpot names its compiler threads "C1 CompilerThread0", "C2 CompilerThread1" (15 characters survive in comm). */
    private static final String COMPILER_THREAD = "CompilerThre";

    /** A round counts as quiet when the compilers worked at most this share of its wall time. */
    static final double QUIET_SHARE = 0.02;

    private JitActivity() {}

    /**
     * Compiling so far in ns: the compiler threads' run time where the kernel reports it, else the
     * JVM's total compile time, else 0 (then every round is quiet). It can drop when the JVM retires
     * an idle compiler thread; {@link #quiet} takes such a drop as no compiling.
     */
    static long compileNs() {
        long live = compilerThreadsNs();
        if (live >= 0) return live;
        return MONITORED ? JIT.getTotalCompilationTime() * 1_000_000L : 0;
    }

    /** Whether {@code compiledNs} of compiling during {@code wallNs} leaves the round quiet. */
    static boolean quiet(long compiledNs, long wallNs) {
        return compiledNs <= QUIET_SHARE * wallNs;
    }

    /** Whether each thread of the last listing (by its /proc/self/task entry) is a compiler thread. */
    private static Map<String, Boolean> compilerByTask = new HashMap<>();

    /**
     * The compiler threads' summed run time in ns, or -1 where /proc does not say. The listing is
     * read every time, since HotSpot starts and retires compiler threads as its queue grows and
     * shrinks; a thread's name only while it stays listed (in a JVM of 19 threads, reading every
     * name took 0.41 ms a call, against 0.06 ms), so a thread id the kernel hands out again is
     * looked at afresh.
     */
    static synchronized long compilerThreadsNs() {
        long sum = 0;
        boolean found = false;
        Map<String, Boolean> listed = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                try {
                    String id = task.getFileName().toString();
                    Boolean compiler = compilerByTask.get(id);
                    if (compiler == null) compiler = Files.readString(task.resolve("comm")).contains(COMPILER_THREAD);
                    listed.put(id, compiler);
                    if (!compiler) continue;
                    String stat = Files.readString(task.resolve("schedstat"));
                    sum += Long.parseLong(stat.substring(0, stat.indexOf(' ')));
                    found = true;
                } catch (IOException exited) {
                    // the thread ended between listing and reading: its time no longer counts anywhere
                }
            }
        } catch (IOException | RuntimeException unreadable) { // no /proc (not Linux), or not readable
            return -1;
        }
        compilerByTask = listed;
        return found ? sum : -1;
    }
}
