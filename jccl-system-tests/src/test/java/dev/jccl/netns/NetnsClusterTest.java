package dev.jccl.netns;

import dev.jccl.testkit.netns.NetnsCluster;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** The harness itself: hosts that share neither name, /dev/shm nor network, and nothing left after close. */
@Tag("multiprocess")
class NetnsClusterTest {
    @BeforeAll
    static void needsNamespaces() {
        NetnsCluster.assumeAvailable();
    }

    @Test
    @Timeout(60)
    void everyHostHasItsOwnNameAndSharedMemoryAndNothingIsLeftAfterClose() throws Exception {
        String mark = "jcclt-mark-" + ProcessHandle.current().pid();
        List<String> seen = new ArrayList<>();
        try (NetnsCluster cluster = NetnsCluster.start(3)) {
            for (int h = 0; h < cluster.hosts(); h++) {
                seen.add(run(cluster.exec(h), "hostname; ls /dev/shm; touch /dev/shm/" + mark
                        + "; ip -4 -o addr show scope global | awk '{print $4}'"));
            }
            assertTrue(run(List.of("ip", "route", "show", "10.213.0.0/16"), "").contains("blackhole"), "the root namespace routes the subnet nowhere");
        }
        for (int h = 0; h < 3; h++) {
            List<String> lines = seen.get(h).lines().toList();
            assertEquals("jcclt-host" + h, lines.get(0), seen.get(h));
            assertFalse(seen.get(h).contains(mark), "host " + h + " saw another host's /dev/shm: " + seen.get(h));
            assertTrue(seen.get(h).contains("10.213." + (h + 1) + ".2/24"), seen.get(h));
        }
        assertFalse(java.nio.file.Files.exists(java.nio.file.Path.of("/dev/shm", mark)), "the root /dev/shm is untouched");
        assertFalse(run(List.of("ip", "netns", "list"), "").contains("jcclt-"), "namespaces removed");
        assertFalse(run(List.of("ip", "route", "show"), "").contains("10.213."), "blackhole route removed");
    }

    /** {@code prefix} then {@code sh -c script} (or just the prefix when the script is empty); its stdout. */
    static String run(List<String> prefix, String script) throws IOException, InterruptedException {
        List<String> argv = new ArrayList<>(prefix);
        if (!script.isEmpty()) argv.addAll(List.of("sh", "-c", script));
        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(20, TimeUnit.SECONDS), "still running: " + argv);
        assertEquals(0, p.exitValue(), argv + ": " + out);
        return out.trim();
    }
}
