package dev.jccl.cli.doctor;

import dev.jccl.cli.tool.Finding;
import dev.jccl.cli.tool.RankFacts;
import dev.jccl.cli.tool.Verdict;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Doctor's fact checks on a job over several hosts, from made-up facts: what is normal there, and the MTU mismatch named by host. */
@Tag("unit")
class MultiHostFactChecksTest {
    /** 3 hosts x 2 ranks; host h's interface is eth-h at 10.0.h.2 with {@code mtus[h]}; shm reaches within a host. */
    private static List<RankFacts> cluster(int... mtus) {
        List<RankFacts> out = new ArrayList<>();
        for (int r = 0; r < 6; r++) {
            int h = r / 2;
            out.add(new RankFacts(r, Map.of("hostId", "host" + h, "allowed", "shm,tcp", "provider.shm", "host" + h + " fs 42",
                    "provider.tcp", "10.0." + h + ".2", "device.tcp", "eth-" + h, "address.tcp", "10.0." + h + ".2",
                    "mtu.tcp", Integer.toString(mtus[h]), "hostAddress", "10.0." + h + ".2", "host", "host" + h)));
        }
        return out;
    }

    private static List<Finding> notOk(List<Finding> f) {
        return f.stream().filter(x -> x.verdict() != Verdict.OK).toList();
    }

    @Test
    void differentInterfaceNamesOnDifferentHostsAreNormal() {
        List<Finding> f = InterfaceChecks.check(cluster(1500, 1500, 1500));
        assertEquals(List.of(), notOk(f));
        assertTrue(f.getFirst().evidence().contains("eth-2 10.0.2.2 MTU 1500 on host2"), f.toString());
        assertEquals("MTU 1500 on all 3 hosts", f.getLast().evidence());
    }

    @Test
    void anMtuMismatchWarnsNamingTheOddHostAndItsFix() {
        List<Finding> all = InterfaceChecks.check(cluster(1500, 1400, 1500));
        assertEquals("interface", all.getFirst().check(), "the interfaces themselves are fine: " + all);
        List<Finding> f = notOk(all);
        assertEquals(1, f.size(), f.toString());
        Finding mtu = f.getFirst();
        assertEquals(Verdict.WARN, mtu.verdict());
        assertEquals("mtu", mtu.check());
        assertTrue(mtu.evidence().startsWith("MTU differs between hosts: MTU 1500 on host0 (ranks 0, 1), host2 (ranks 4, 5); "
                + "MTU 1400 on host1 (ranks 2, 3)"), mtu.evidence());
        assertEquals("ip link set dev eth-1 mtu 1500 on host1", mtu.fix());
    }

    @Test
    void loopbackInAJobOverHostsFails() {
        List<RankFacts> facts = new ArrayList<>(cluster(1500, 1500, 1500));
        Map<String, String> lo = new java.util.HashMap<>(facts.get(3).facts());
        lo.putAll(Map.of("device.tcp", "lo", "address.tcp", "127.0.0.1"));
        facts.set(3, new RankFacts(3, lo));
        List<Finding> f = notOk(InterfaceChecks.check(facts));
        assertTrue(f.stream().anyMatch(x -> x.verdict() == Verdict.FAIL && x.check().equals("interface rank 3")), f.toString());
        assertTrue(f.stream().anyMatch(x -> x.verdict() == Verdict.WARN && x.evidence().contains("ranks of host host1")), f.toString());
    }

    @Test
    void shmWithinAHostAndTcpAcrossIsNoFallback() {
        List<Finding> f = FactChecks.transport(cluster(1500, 1500, 1500));
        assertEquals(1, f.size(), f.toString());
        assertEquals(Verdict.OK, f.getFirst().verdict(), f.toString());
        assertTrue(f.getFirst().evidence().startsWith("shm for 0-1, 2-3, 4-5 (within a host); tcp for 0-2"), f.getFirst().evidence());
        assertTrue(f.getFirst().evidence().contains("(across hosts)"), f.getFirst().evidence());
    }
}
