package dev.jccl.testkit.jvm;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One JVM started by a test, with its output captured: stdout line by line (for a line protocol
 * with the child, {@link #readLine}) and both streams whole (for failure messages); stderr is also
 * echoed to this JVM's stderr as it comes, prefixed with the child's name. Every wait is
 * bounded; {@link #close()} kills the child and everything it started.
 *
 * <p>The child inherits this environment minus every launcher and JCCL_ variable, plus {@code env}:
 * it sees only what the test gives it, whatever the shell running the tests has set.
 */
public final class ChildJvm implements AutoCloseable {
    /** How long close waits for a killed child to be gone. */
    public static final long EXIT_WAIT_NS = TimeUnit.SECONDS.toNanos(10);
    private static final List<String> LAUNCH_VARIABLES = List.of("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE",
            "GROUP_RANK", "NODE_RANK", "MASTER_ADDR", "MASTER_PORT");
    private static final String EOF = new String("end of stream");

    private final String name;
    private final Process process;
    private final PrintStream stdin;
    private final LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final StringBuffer stdout = new StringBuffer();
    private final StringBuffer stderr = new StringBuffer();
    private final Thread outPump;
    private final Thread errPump;

    private ChildJvm(String name, Process process) {
        this.name = name;
        this.process = process;
        this.stdin = new PrintStream(process.getOutputStream(), true, StandardCharsets.UTF_8);
        this.outPump = pump(process.getInputStream(), stdout, true);
        this.errPump = pump(process.getErrorStream(), stderr, false);
    }

    /** Starts {@code command} with {@code env} on top of the scrubbed environment. */
    public static ChildJvm start(JavaCommand command, Map<String, String> env) {
        return start(command.mainClass(), command.toList(), env);
    }

    public static ChildJvm start(JavaCommand command) {
        return start(command, Map.of());
    }

    /** Any argv (e.g. a launcher's), named {@code name} in failure messages. */
    public static ChildJvm start(String name, List<String> argv, Map<String, String> env) {
        ProcessBuilder pb = new ProcessBuilder(argv);
        pb.environment().keySet().removeIf(k -> LAUNCH_VARIABLES.contains(k) || k.startsWith("JCCL_")
                || k.startsWith("SLURM_") || k.startsWith("OMPI_"));
        pb.environment().putAll(env);
        try {
            return new ChildJvm(name, pb.start());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + argv, e);
        }
    }

    public long pid() {
        return process.pid();
    }

    public Process process() {
        return process;
    }

    /** The next line the child writes to stdout; fails, with what it wrote, on timeout or end of stream. */
    public String readLine(long timeoutNs) throws InterruptedException {
        String line = lines.poll(timeoutNs, TimeUnit.NANOSECONDS);
        if (line == null) throw new AssertionError(name + " wrote no line within " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms" + output());
        if (line == EOF) {
            lines.add(EOF);
            throw new AssertionError(name + " closed stdout" + exitNote() + output());
        }
        return line;
    }

    /** Writes one line to the child's stdin. */
    public void writeLine(String line) {
        stdin.println(line);
    }

    /** Waits for the child to exit on its own and returns its status; fails, with its output, if it is still running. */
    public int awaitExit(long timeoutNs) throws InterruptedException {
        if (!process.waitFor(timeoutNs, TimeUnit.NANOSECONDS)) {
            throw new AssertionError(name + " still running after " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms" + output());
        }
        drainPumps();
        return process.exitValue();
    }

    /** SIGKILL, no shutdown hooks; returns once the process is gone (bounded). */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(EXIT_WAIT_NS, TimeUnit.NANOSECONDS);
    }

    /** Everything the child wrote to stdout so far. */
    public String stdout() {
        return stdout.toString();
    }

    /** Everything the child wrote to stderr so far, without the JVM's incubator notice. */
    public String stderr() {
        return stderr.toString().lines().filter(l -> !l.equals(JavaCommand.INCUBATOR_WARNING))
                .map(l -> l + "\n").reduce("", String::concat);
    }

    /** Both streams, for assertion messages. */
    public String output() {
        return "\n--- " + name + " stdout\n" + stdout() + "--- " + name + " stderr\n" + stderr();
    }

    /** Kills the child and whatever it started, then waits (bounded) for them and for the output. */
    @Override
    public void close() {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(EXIT_WAIT_NS, TimeUnit.NANOSECONDS);
            drainPumps();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        stdin.close();
    }

    private void drainPumps() throws InterruptedException {
        outPump.join(TimeUnit.NANOSECONDS.toMillis(EXIT_WAIT_NS));
        errPump.join(TimeUnit.NANOSECONDS.toMillis(EXIT_WAIT_NS));
    }

    private String exitNote() {
        Optional<Integer> code = process.isAlive() ? Optional.empty() : Optional.of(process.exitValue());
        return code.map(c -> " (exit status " + c + ")").orElse("");
    }

    private Thread pump(InputStream in, StringBuffer all, boolean queueLines) {
        return Thread.ofPlatform().daemon().name(name + (queueLines ? "-stdout" : "-stderr")).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    all.append(line).append('\n');
                    if (queueLines) lines.add(line);
                    else if (!line.equals(JavaCommand.INCUBATOR_WARNING)) System.err.println("[" + name + "] " + line);
                }
            } catch (IOException e) {
                all.append("[reading failed: ").append(e).append("]\n");
            } finally {
                if (queueLines) lines.add(EOF);
            }
        });
    }
}
