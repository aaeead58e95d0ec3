package dev.jccl.cli.itest;

import dev.jccl.cli.launch.LaunchResult;
import dev.jccl.cli.launch.Launcher;
import dev.jccl.testkit.ProviderUnderTest;
import dev.jccl.testkit.jvm.JavaCommand;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Two real rank JVMs: one opens its tcp device with a token other than the job's. Its queue pair
 * cannot connect (a clear VerbsException naming the peer), stays in INIT, and the listener of the
 * other rank logs the refusal with the caller's address.
 */
@Tag("multiprocess")
class WrongTokenTest {
    @Test
    @Timeout(40)
    void aQueuePairWithTheWrongTokenIsRefusedAndTheListenerSaysWhom() {
        ProviderUnderTest.require("tcp");
        PrintStream sink = new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
        LaunchResult result = Launcher.builder().nprocPerNode(2).command(JavaCommand.main(WrongTokenRank.class).fastStart().toList())
                .env("JCCL_TIMEOUT", "20s").timeoutNs(TimeUnit.SECONDS.toNanos(35)).output(sink, sink)
                .captureOutput(true).build().run();
        String all = result.output(0) + "\n" + result.output(1);
        assertTrue(result.succeeded(), result.message() + "\n" + all);

        String gid = only(result.output(0), "listening at ").substring("listening at ".length());
        assertTrue(gid.startsWith("127.0.0.1:"), "a local job listens on loopback only: " + gid);
        String refusal = only(result.output(1), "refused: ");
        assertTrue(refusal.contains("peer " + gid + " refused the job token (JCCL_AUTH_TOKEN differs or is missing)"), refusal);
        assertEquals(List.of("qp state after the refusal: INIT"),
                result.output(1).stream().filter(l -> l.startsWith("qp state")).toList(), "a refused connect changes nothing");

        List<String> logged = result.output(0).stream()
                .filter(l -> l.contains("[NET] WARN listener " + gid + " refused connection from 127.0.0.1:")).toList();
        assertEquals(1, logged.size(), "one refusal logged by the listener: " + all);
        assertTrue(logged.getFirst().contains("job token"), logged.getFirst());
    }

    private static String only(List<String> lines, String prefix) {
        List<String> hits = lines.stream().filter(l -> l.startsWith(prefix)).toList();
        assertEquals(1, hits.size(), "one line starting '" + prefix + "' in " + lines);
        return hits.getFirst();
    }
}
