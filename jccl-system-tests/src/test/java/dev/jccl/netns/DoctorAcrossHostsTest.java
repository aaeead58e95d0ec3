package dev.jccl.netns;

import dev.jccl.cli.tool.JsonParse;
import dev.jccl.testkit.jvm.JavaCommand;
import dev.jccl.testkit.netns.NetnsCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code jccl doctor} as a job over 3 hosts x 2 ranks, each host's ranks started by {@code jccl
 * launch} on that host: host 2's link at 100 Mbit and the others at 1 Gbit, host 1's MTU 1400.
 * Doctor must name host 2 (ranks 4 and 5) as the slow host and no rank or link besides, WARN on
 * host 1's MTU with the fix, find shm within each host and tcp across (no fallback), and find no
 * fault with the interfaces: the ranks bind the veth that routes to the store, never loopback.
 */
@Tag("slow")
class DoctorAcrossHostsTest {
    static final int HOSTS = 3;
    static final int RANKS_PER_HOST = 2;
    static final int SLOW_HOST = 2;
    static final int MTU_HOST = 1;
    private static NetnsCluster cluster;

    @BeforeAll
    static void startCluster() {
        NetnsCluster.assumeAvailable();
        cluster = NetnsCluster.start(HOSTS);
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) cluster.close();
    }

    @Test
    @Timeout(200)
    void doctorNamesTheSlowHostAndTheOddMtuAndFindsTheInterfacesAndTransportsRight() throws Exception {
        try {
            for (int h = 0; h < HOSTS; h++) cluster.link(h).rate(h == SLOW_HOST ? "100mbit" : "1gbit");
            cluster.link(MTU_HOST).mtu(1400);
            JavaCommand doctor = JavaCommand.main("dev.jccl.cli.Main").fastStart()
                    .args("doctor", "--json", "--pair-size", "1M", "--skip", "qps,buffsize,soak");
            long start = System.nanoTime();
            try (ClusterJob job = ClusterJob.start(cluster, RANKS_PER_HOST, h -> cluster.address(0) + ":" + ClusterJob.STORE_PORT,
                    Map.of(), doctor, "180s")) {
                List<Integer> exits = job.await(150);
                long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start);
                List<String> json = job.lines(0, "{\"tool\":\"doctor\"");
                assertEquals(1, json.size(), "rank 0 prints one JSON object" + job.output());
                List<Map<?, ?>> findings = ((List<?>) JsonParse.object(json.getFirst()).get("findings")).stream().<Map<?, ?>>map(f -> (Map<?, ?>) f).toList();
                for (Map<?, ?> f : findings) System.out.println("DOCTOR " + f.get("verdict") + " | " + f.get("check") + " | " + f.get("evidence"));
                assertEquals(List.of(1, 0, 0), exits, "host 0's launcher passes on rank 0's exit 1 (a FAIL); the others end well" + job.output());

                Map<?, ?> slow = only(findings, "slow host");
                assertEquals("FAIL", slow.get("verdict"), slow.toString());
                assertTrue(evidence(slow).startsWith("host " + cluster.hostName(SLOW_HOST) + " (ranks 4, 5) slow: "), slow.toString());
                assertTrue(findings.stream().noneMatch(f -> f.get("check").equals("slow rank") || f.get("check").equals("slow link")),
                        "the slow host and nothing else" + findings);

                Map<?, ?> mtu = only(findings, "mtu");
                assertEquals("WARN", mtu.get("verdict"), mtu.toString());
                assertTrue(evidence(mtu).contains("MTU 1400 on " + cluster.hostName(MTU_HOST) + " (ranks 2, 3)"), mtu.toString());
                assertEquals("ip link set dev jcclt-h" + MTU_HOST + " mtu 1500 on " + cluster.hostName(MTU_HOST), mtu.get("fix"));

                Map<?, ?> iface = only(findings, "interface");
                assertEquals("OK", iface.get("verdict"), iface.toString());
                assertTrue(evidence(iface).contains("jcclt-h0 " + cluster.address(0) + " MTU 1500 on " + cluster.hostName(0)), iface.toString());
                assertTrue(findings.stream().noneMatch(f -> !f.get("verdict").equals("OK")
                        && (((String) f.get("check")).startsWith("interface") || ((String) f.get("check")).startsWith("hostname"))), findings.toString());
                assertTrue(findings.stream().noneMatch(f -> evidence(f).contains("loopback")), findings.toString());

                Map<?, ?> transport = only(findings, "transport");
                assertEquals("OK", transport.get("verdict"), transport.toString());
                assertTrue(evidence(transport).startsWith("shm for 0-1, 2-3, 4-5 (within a host); tcp for 0-2"), transport.toString());
                assertTrue(evidence(transport).contains("(across hosts), the fastest that reaches"), transport.toString());
                assertEquals("OK", only(findings, "consistency").get("verdict"), findings.toString());

                Scenarios.report("jccl doctor, 3 hosts x 2 ranks, host 2 at 100 Mbit, host 1 MTU 1400",
                        "FAIL slow host " + cluster.hostName(SLOW_HOST) + " (ranks 4, 5); WARN mtu on " + cluster.hostName(MTU_HOST)
                                + "; transport and interfaces OK", "doctor took " + seconds + " s; " + evidence(slow));
            }
        } finally {
            for (int h = 0; h < HOSTS; h++) cluster.link(h).clear();
            cluster.link(MTU_HOST).mtu(1500);
        }
    }

    private static Map<?, ?> only(List<Map<?, ?>> findings, String check) {
        List<Map<?, ?>> named = findings.stream().filter(f -> f.get("check").equals(check)).toList();
        assertEquals(1, named.size(), "one '" + check + "' finding in " + findings);
        return named.getFirst();
    }

    private static String evidence(Map<?, ?> finding) {
        return (String) finding.get("evidence");
    }
}
