package dev.jccl.netns;

import dev.jccl.testkit.netns.NetnsCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Faults across hosts, each injected while the ranks loop on allReduce: a link down (and up again),
 * every rank of one host killed, the store's host killed. Survivors fail with an error naming what
 * they lost, within the bounds the scenarios set, never after JCCL_TIMEOUT (60 s here).
 */
@Tag("slow")
class HostFaultTest {
    static final String BYTES = Long.toString(4L << 20);
    private static NetnsCluster cluster;

    @BeforeAll
    static void startCluster() {
        NetnsCluster.assumeAvailable();
        cluster = NetnsCluster.start(2);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) cluster.close();
    }

    private static ClusterJob armed(Path signals) throws InterruptedException {
        ClusterJob job = ClusterJob.start(cluster, 2, Map.of(), "fault", BYTES, signals.toString());
        job.awaitAll("ARMED", 60);
        return job;
    }

    @Test
    @Timeout(150)
    void aLinkDownFailsEveryRankWithinFiveSecondsAndANewCommunicatorWorksOnceItIsBack() throws Exception {
        Path signals = Files.createDirectories(cluster.runDir().resolve("flap"));
        try (ClusterJob job = armed(signals)) {
            long at = System.currentTimeMillis();
            cluster.link(1).down();
            try {
                job.awaitAll("ERROR", 30);
            } finally {
                cluster.link(1).up();
            }
            List<Detection> d = Detection.of(job, List.of(0, 1, 2, 3), at);
            for (Detection x : d) assertTrue(x.message().matches(".*(lost rank|link to rank) [0-3]\\b.*"), "names a lost rank: " + x);
            Files.createFile(signals.resolve("again"));
            job.awaitAll("AGAIN", 60);
            Scenarios.report("link of host 1 down", "every rank fails, names a lost rank", "slowest " + Detection.slowestMs(d) + " ms after the fault");
            assertTrue(Detection.slowestMs(d) < 5_000 + 2_000, "every rank within 5 s (slack for a busy machine): " + d);
            for (int r = 0; r < 4; r++) assertEquals(List.of("AGAIN ok=true"), job.lines(r, "AGAIN"), job.output());
            Scenarios.report("link back up after that error", "a new communicator in the same JVMs works", "4 of 4 ranks");
        }
    }

    @Test
    @Timeout(150)
    void killingEveryRankOfOneHostFailsTheSurvivorsWithinTwoSeconds() throws Exception {
        try (ClusterJob job = armed(Files.createDirectories(cluster.runDir().resolve("kill1")))) {
            long at = System.currentTimeMillis();
            assertTrue(cluster.killHost(1) >= 3, "the launcher and two ranks of host 1");
            job.await("ERROR", List.of(0, 1), 30);
            List<Detection> d = Detection.of(job, List.of(0, 1), at);
            Scenarios.report("SIGKILL of every rank on host 1", "survivors fail naming a lost rank",
                    "slowest " + Detection.slowestMs(d) + " ms after the kill");
            assertTrue(Detection.slowestMs(d) < 2_000 + 1_000, "survivors within 2 s: " + d);
            for (Detection x : d) assertTrue(x.message().matches(".*rank [23]\\b.*"), "names a lost rank: " + x);
        }
    }

    @Test
    @Timeout(150)
    void killingTheStoreHostFailsTheSurvivorsWithinTwoSeconds() throws Exception {
        try (ClusterJob job = armed(Files.createDirectories(cluster.runDir().resolve("kill0")))) {
            long at = System.currentTimeMillis();
            assertTrue(cluster.killHost(0) >= 3, "the launcher (and its store) and two ranks of host 0");
            job.await("ERROR", List.of(2, 3), 30);
            List<Detection> d = Detection.of(job, List.of(2, 3), at);
            Scenarios.report("store host (host 0) killed", "survivors fail naming a lost rank", "slowest " + Detection.slowestMs(d) + " ms after the kill");
            assertTrue(Detection.slowestMs(d) < 2_000 + 1_000, "survivors within 2 s: " + d);
            for (Detection x : d) assertTrue(x.message().matches(".*rank [01]\\b.*"), "names a lost rank: " + x);
        }
    }

}
