package dev.jccl.netns;

import dev.jccl.testkit.jvm.ChildJvm;
import dev.jccl.testkit.netns.NetnsCluster;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

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

    @Test
    @Timeout(120)
    void aJobWhoseOtherHostReachesTheStoreThroughADelayProxyWorks() throws Exception {
        try (NetnsCluster cluster = NetnsCluster.start(2);
             ChildJvm proxy = ChildJvm.start("delay-proxy", cluster.delayProxyCommand(0, 29600, ClusterJob.STORE_PORT, 20, 5).toList(),
                     Map.of())) {
            assertTrue(proxy.readLine(TimeUnit.SECONDS.toNanos(30)).startsWith("PROXY listening " + cluster.routerAddress(0)));
            IntFunction<String> store = h -> h == 0 ? cluster.address(0) + ":" + ClusterJob.STORE_PORT : cluster.routerAddress(0) + ":29600";
            long start = System.nanoTime();
            try (ClusterJob job = ClusterJob.start(cluster, 1, store, Map.of(), "verify", "1", "1000003")) {
                assertEquals(List.of(0, 0), job.await(90), job.output());
                for (int r = 0; r < 2; r++) assertEquals(2, job.lines(r, "RESULT").stream().filter(l -> l.endsWith("ok=true")).count(), job.output());
            }
            Scenarios.report("host 1 reaches the store through a 20 +- 5 ms delay proxy", "correct",
                    "job took " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
        }
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
