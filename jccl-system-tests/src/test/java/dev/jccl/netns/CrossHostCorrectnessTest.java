package dev.jccl.netns;

import dev.jccl.testkit.netns.NetnsCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/**
 * 2 hosts x 2 ranks: allReduce of 0, 1, a prime and 64 MiB worth of floats gives every rank the
 * reference result, bit for bit, with shared memory inside a host and tcp over the veth across.
 */
@Tag("slow")
class CrossHostCorrectnessTest {
    static final List<String> COUNTS = List.of("0", "1", "1000003", Long.toString((64L << 20) / 4));
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

    @ParameterizedTest
    @ValueSource(strings = {"hierarchical", "ring"})
    @Timeout(150)
    void everyRankGetsTheReferenceBitForBitOverShmWithinAndTcpAcross(String algo) throws Exception {
        String[] args = new String[COUNTS.size() + 1];
        args[0] = "verify";
        for (int i = 0; i < COUNTS.size(); i++) args[i + 1] = COUNTS.get(i);
        try (ClusterJob job = ClusterJob.start(cluster, 2, Map.of("JCCL_ALGO", algo, "JCCL_DEBUG", "INFO",
                "JCCL_DEBUG_SUBSYS", "INIT,NET"), args)) {
            assertEquals(List.of(0, 0), job.await(120), job.output());
            for (String count : COUNTS) {
                Set<String> crcs = new HashSet<>();
                for (int r = 0; r < job.ranks(); r++) {
                    List<String> results = job.lines(r, "RESULT count=" + count + " ");
                    assertEquals(1, results.size(), "rank " + r + " count " + count + job.output());
                    assertTrue(results.getFirst().endsWith("ok=true"), results.getFirst() + job.output());
                    crcs.add(results.getFirst());
                }
                assertEquals(1, crcs.size(), "every rank holds the same bits for count " + count + ": " + crcs);
            }
            String log = job.output();
            assertTrue(log.contains("rank 0 -> rank 1 channel 0 via shm") || log.contains("rank 1 -> rank 0 channel 0 via shm"),
                    "shm within host 0" + log);
            assertTrue(log.matches("(?s).*rank [01] -> rank [23] channel \\d+ via tcp.*"), "tcp across hosts" + log);
            assertFalse(log.matches("(?s).*rank [01] -> rank [23] channel \\d+ via shm.*"), "never shm across hosts" + log);
            assertTrue(log.contains("socket interface: interface jcclt-h0 10.213.1.2: it routes to the store"), log);
            Scenarios.report("2 hosts x 2 ranks, " + algo + ", float counts 0, 1, 1000003, 64 MiB", "bit-identical on every rank, equal"
                    + " to the reference; shm within a host, NET/Socket across", job.ranks() + " ranks agree on every count");
        }
    }
}
