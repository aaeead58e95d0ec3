package dev.jccl.cli.itest;

import dev.jccl.cli.launch.JvmCommand;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * The jccl CLI run in a JVM of its own, the way a user runs it: outside any launcher's job (so
 * {@code demo} and {@code perf} launch their own ranks), with only the JCCL_ variables a test gives.
 *
 * @param exitCode the CLI process's exit status
 * @param stdout   everything it (and its ranks, through the launcher's prefixed pumps) wrote to stdout
 * @param stderr   the same for stderr
 */
record CliRun(List<String> args, int exitCode, String stdout, String stderr) {
    private static final List<String> LAUNCH_VARIABLES = List.of("RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE",
            "GROUP_RANK", "NODE_RANK", "MASTER_ADDR", "MASTER_PORT");

    static CliRun run(Map<String, String> env, Duration limit, String... args) throws IOException, InterruptedException {
        Path dir = Files.createTempDirectory("jccl-cli-run");
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        ProcessBuilder pb = new ProcessBuilder(JvmCommand.jcclCli(args)).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().keySet().removeIf(k -> LAUNCH_VARIABLES.contains(k) || k.startsWith("JCCL_")
                || k.startsWith("SLURM_") || k.startsWith("OMPI_"));
        pb.environment().putAll(env);
        Process p = pb.start();
        try {
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                fail("jccl " + String.join(" ", args) + " still running after " + limit + "\n--- stdout\n"
                        + Files.readString(out) + "\n--- stderr\n" + Files.readString(err));
            }
            // The JVM's own incubator notice is dropped here as the jccl script drops it.
            String stderr = Files.readString(err, StandardCharsets.UTF_8).lines()
                    .filter(l -> !l.equals(JvmCommand.INCUBATOR_WARNING))
                    .map(l -> l + "\n").collect(java.util.stream.Collectors.joining());
            return new CliRun(List.of(args), p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), stderr);
        } finally {
            // On a timeout or an interrupt, take the ranks it launched down with it.
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            for (Path f : List.of(out, err, dir)) Files.deleteIfExists(f);
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
