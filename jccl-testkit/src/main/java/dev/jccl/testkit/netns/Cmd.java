package dev.jccl.testkit.netns;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** One short command of the harness (ip, tc, nft), bounded in time, its output kept for the error. */
final class Cmd {
    /** No harness command takes long; one that does is stuck, and is killed. */
    static final long LIMIT_SECONDS = 20;

    record Result(int status, String output) {
        boolean ok() {
            return status == 0;
        }
    }

    private Cmd() {}

    static Result run(List<String> argv) {
        ProcessBuilder pb = new ProcessBuilder(argv).redirectErrorStream(true);
        try {
            Process p = pb.start();
            p.getOutputStream().close();
            byte[] out = p.getInputStream().readAllBytes(); // ends when the command exits (it closes its stdout)
            if (!p.waitFor(LIMIT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(124, "timed out after " + LIMIT_SECONDS + " s: " + String.join(" ", argv));
            }
            return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8).trim());
        } catch (IOException e) {
            return new Result(127, "cannot run " + argv.getFirst() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + argv, e);
        }
    }

    static Result run(String... argv) {
        return run(List.of(argv));
    }

    /** Runs {@code argv} and throws, with its output, unless it succeeds. */
    static String must(String... argv) {
        Result r = run(argv);
        if (!r.ok()) throw new UncheckedIOException(new IOException(String.join(" ", argv) + " failed (" + r.status() + "): " + r.output()));
        return r.output();
    }

    /** Runs {@code argv} in network namespace {@code ns}. */
    static String mustIn(String ns, String... argv) {
        String[] all = new String[argv.length + 4];
        all[0] = "ip";
        all[1] = "netns";
        all[2] = "exec";
        all[3] = ns;
        System.arraycopy(argv, 0, all, 4, argv.length);
        return must(all);
    }
}
