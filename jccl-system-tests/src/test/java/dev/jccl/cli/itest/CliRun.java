package dev.jccl.cli.itest;

import dev.jccl.cli.Main;
import dev.jccl.testkit.jvm.ChildJvm;
import dev.jccl.testkit.jvm.JavaCommand;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The jccl CLI run in a JVM of its own, the way a user runs it: outside any launcher's job (so
 * {@code demo} and {@code perf} launch their own ranks), with only the JCCL_ variables a test gives.
 *
 * @param exitCode the CLI process's exit status
 * @param stdout   everything it (and its ranks, through the launcher's prefixed pumps) wrote to stdout
 * @param stderr   the same for stderr, without the JVM's incubator notice (the jccl script drops it too)
 */
record CliRun(List<String> args, int exitCode, String stdout, String stderr) {
    /** The command line of {@code jccl args...}, for a test to run or to hand to {@code jccl launch}. */
    static JavaCommand cli(String... args) {
        return JavaCommand.main(Main.class).args(args);
    }

    static CliRun run(Map<String, String> env, Duration limit, String... args) throws InterruptedException {
        // Closing takes the ranks it launched down with it, on a timeout too.
        try (ChildJvm jccl = ChildJvm.start("jccl " + String.join(" ", args), cli(args).toList(), env)) {
            int status = jccl.awaitExit(limit.toNanos());
            return new CliRun(List.of(args), status, jccl.stdout(), jccl.stderr());
        }
    }

    List<String> stdoutLines() {
        return Arrays.asList(stdout.split("\\R"));
    }

    /** For assertion messages: the command, its status and both streams. */
    String describe() {
        return "jccl " + String.join(" ", args) + " exited with " + exitCode + "\n--- stdout\n" + stdout + "--- stderr\n" + stderr;
    }
}
