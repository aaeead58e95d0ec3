package dev.jccl.cli.perf.coll;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;

/**
 * How busy this JVM's JIT compilers have been: their total compile time, as the JVM reports it.
 * A timed loop that starts while the compilers still work measures two things at once: the
 * interpreted or half-compiled data path, and compiler threads taking cores from the ranks. On a
 * host with no spare core the second is the larger; both end when compiling does.
 */
final class JitActivity {
    private static final CompilationMXBean JIT = ManagementFactory.getCompilationMXBean();
    private static final boolean MONITORED = JIT != null && JIT.isCompilationTimeMonitoringSupported();

    /** A round counts as quiet when the compilers worked at most this share of its wall time. */
    static final double QUIET_SHARE = 0.02;

    private JitActivity() {}

    /** Total compile time so far in ns, or 0 where the JVM does not report it (then every round is quiet). */
    static long compileNs() {
        return MONITORED ? JIT.getTotalCompilationTime() * 1_000_000L : 0;
    }

    /** Whether {@code compiledNs} of compiling during {@code wallNs} leaves the round quiet. */
    static boolean quiet(long compiledNs, long wallNs) {
        return compiledNs <= QUIET_SHARE * wallNs;
    }
}
