package dev.jccl.netns;

import dev.jccl.testkit.jvm.ChildJvm;
import dev.jccl.testkit.jvm.JavaCommand;
import dev.jccl.testkit.netns.NetnsCluster;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Added latency on the data path: every rank advertises the router's address (JCCL_TCP_ADVERTISE)
 * and a {@link NetnsCluster#dataProxyCommand delay proxy} there relays its tcp connections, 2 ms each
 * way. The proxy's byte counter shows the data went through it, and every result is bit for bit
 * what the same job computes over the direct path.
 */
@Tag("slow")
class DelayedDataPathTest {
    static final String[] VERIFY = {"verify", "1", "1000003", Long.toString(1L << 20)};
    static final long CROSS_HOST_BYTES = 1000003L * 4;

    @Test
    @Timeout(240)
    void tcpDataThroughTheDelayProxyGivesTheSameBits() throws Exception {
        NetnsCluster.assumeAvailable();
        try (NetnsCluster cluster = NetnsCluster.start(2)) {
            List<String> direct = results(cluster, h -> Map.of("JCCL_ALGO", "ring"));
            try (ChildJvm proxy = ChildJvm.start("data-proxy", cluster.dataProxyCommand(2, 2, 0).toList(), Map.of())) {
                awaitLine(proxy, "PROXIES ready");
                assertEquals(0, forwarded(proxy), "nothing forwarded before the job");
                long start = System.nanoTime();
                List<String> relayed = results(cluster, h -> Map.of("JCCL_ALGO", "ring",
                        NetRank.ADVERTISE_ENV, cluster.dataProxyAddress(h) + ":" + NetnsCluster.DATA_PORT_BASE));
                long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                long bytes = forwarded(proxy);
                assertTrue(bytes > CROSS_HOST_BYTES, "the proxy forwarded only " + bytes + " bytes" + proxy.output());
                assertEquals(direct, relayed, "the same bits over the relayed path");
                Scenarios.report("2 hosts x 2 ranks, ring, tcp data through a 2 ms delay proxy", "bit-identical to the direct path",
                        "proxy forwarded " + bytes + " bytes; job took " + ms + " ms");
            }
        }
    }

    /** Every rank's RESULT lines (count, crc, ok) of one verify job, rank by rank. */
    private static List<String> results(NetnsCluster cluster, IntFunction<Map<String, String>> env) throws Exception {
        JavaCommand rank = JavaCommand.main(NetRank.class).fastStart().args(VERIFY);
        try (ClusterJob job = ClusterJob.start(cluster, 2, h -> cluster.address(0) + ":" + ClusterJob.STORE_PORT, env, rank, "90s")) {
            assertEquals(List.of(0, 0), job.await(120), job.output());
            List<String> out = new ArrayList<>();
            for (int r = 0; r < job.ranks(); r++) {
                List<String> lines = job.lines(r, "RESULT");
                assertEquals(VERIFY.length - 1, lines.size(), "rank " + r + job.output());
                for (String l : lines) assertTrue(l.endsWith("ok=true"), "rank " + r + ": " + l + job.output());
                out.add("rank " + r + ": " + lines);
            }
            return out;
        }
    }

    static long forwarded(ChildJvm proxy) throws InterruptedException {
        proxy.writeLine("bytes");
        String line = awaitLine(proxy, "PROXY bytes ");
        return Long.parseLong(line.substring("PROXY bytes ".length()).trim());
    }

    static String awaitLine(ChildJvm proxy, String prefix) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            String line = proxy.readLine(Math.max(1, deadline - System.nanoTime()));
            if (line.startsWith(prefix)) return line;
        }
    }
}
