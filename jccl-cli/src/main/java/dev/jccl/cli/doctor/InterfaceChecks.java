package dev.jccl.cli.doctor;

import dev.jccl.cli.tool.Finding;
import dev.jccl.cli.tool.RankFacts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Doctor's interface checks, read from every rank's facts (the tcp interface as its communicators
 * bind it): tcp without an interface; in a job over several hosts, loopback or a host name on
 * 127.0.1.1, and an MTU that differs between hosts (named); ranks of one host on different
 * interfaces. Interface names may differ between hosts (each binds the one that routes to the
 * store), so across hosts only the MTU is compared.
 */
final class InterfaceChecks {
    private InterfaceChecks() {}

    static List<Finding> check(List<RankFacts> f) {
        List<Finding> out = new ArrayList<>();
        Map<String, List<RankFacts>> hosts = byHost(f);
        boolean multiHost = hosts.size() > 1;
        String ifname = f.getFirst().knobs().getOrDefault("JCCL_SOCKET_IFNAME", "");
        for (RankFacts r : f) {
            if (!r.get("deviceError.tcp").isEmpty() || !r.get("unavailable.tcp").isEmpty()) {
                out.add(Finding.fail("interface rank " + r.rank(), "tcp has no interface: " + r.get("deviceError.tcp") + r.get("unavailable.tcp"),
                        ifname.isEmpty() ? "set JCCL_SOCKET_IFNAME to an interface of that host (ip -br addr)"
                                : "JCCL_SOCKET_IFNAME=" + ifname + " matches nothing there; pick one of ip -br addr"));
            }
        }
        if (multiHost) {
            for (RankFacts r : f) {
                if (r.get("device.tcp").equals("lo") || r.get("address.tcp").startsWith("127.")) {
                    out.add(Finding.fail("interface rank " + r.rank(), "loopback (" + r.get("address.tcp") + ") chosen in a job over several hosts",
                            "set JCCL_SOCKET_IFNAME to the interface the hosts share"));
                }
                if (r.get("hostAddress").equals("127.0.1.1")) {
                    out.add(Finding.fail("hostname rank " + r.rank(), "host name " + r.get("host") + " resolves to 127.0.1.1 (/etc/hosts)",
                            "map the host name to its real address in /etc/hosts, or set MASTER_ADDR and JCCL_SOCKET_IFNAME"));
                }
            }
        }
        hosts.forEach((host, ranks) -> {
            Map<String, List<Integer>> devices = new LinkedHashMap<>();
            for (RankFacts r : ranks) devices.computeIfAbsent(r.get("device.tcp"), k -> new ArrayList<>()).add(r.rank());
            if (devices.size() > 1) {
                List<String> parts = new ArrayList<>();
                devices.forEach((d, rs) -> parts.add("'" + d + "' on " + ranksText(rs)));
                out.add(Finding.warn("interface", "ranks of host " + host + " use different interfaces: " + String.join(", ", parts),
                        "set JCCL_SOCKET_IFNAME the same on every rank of a host"));
            }
        });
        if (out.isEmpty()) out.add(Finding.ok("interface", "tcp uses " + inUse(hosts) + (multiHost ? "" : "; one host, so loopback and 127.0.1.1 are fine")));
        if (multiHost) out.add(mtu(hosts));
        return out;
    }

    /** OK when every host's interface has the same MTU, else a WARN naming the hosts whose MTU is not the one most hosts use. */
    private static Finding mtu(Map<String, List<RankFacts>> hosts) {
        Map<String, List<String>> byMtu = new LinkedHashMap<>();
        hosts.forEach((host, ranks) -> byMtu.computeIfAbsent(ranks.getFirst().get("mtu.tcp"), k -> new ArrayList<>()).add(host));
        if (byMtu.size() < 2) return Finding.ok("mtu", "MTU " + byMtu.keySet().iterator().next() + " on all " + hosts.size() + " hosts");
        String common = byMtu.entrySet().stream().max(Comparator.comparingInt(e -> e.getValue().size())).orElseThrow().getKey();
        List<String> parts = new ArrayList<>();
        List<String> fixes = new ArrayList<>();
        byMtu.forEach((mtu, hs) -> {
            List<String> named = hs.stream().map(h -> h + " (" + ranksText(hosts.get(h).stream().map(RankFacts::rank).toList()) + ")").toList();
            parts.add("MTU " + mtu + " on " + String.join(", ", named));
            if (!mtu.equals(common)) {
                for (String h : hs) fixes.add("ip link set dev " + hosts.get(h).getFirst().get("device.tcp") + " mtu " + common + " on " + h);
            }
        });
        return Finding.warn("mtu", "MTU differs between hosts: " + String.join("; ", parts)
                + " (a path MTU below an interface's drops or fragments its largest frames)", String.join("; ", fixes));
    }

    private static String inUse(Map<String, List<RankFacts>> hosts) {
        List<String> parts = new ArrayList<>();
        hosts.forEach((host, ranks) -> {
            RankFacts r = ranks.getFirst();
            parts.add(r.get("device.tcp") + " " + r.get("address.tcp") + " MTU " + r.get("mtu.tcp") + (hosts.size() > 1 ? " on " + host : ""));
        });
        return String.join(", ", parts);
    }

    private static Map<String, List<RankFacts>> byHost(List<RankFacts> f) {
        Map<String, List<RankFacts>> by = new LinkedHashMap<>();
        for (RankFacts r : f) by.computeIfAbsent(r.get("hostId"), k -> new ArrayList<>()).add(r);
        return by;
    }

    static String ranksText(List<Integer> ranks) {
        return (ranks.size() == 1 ? "rank " : "ranks ") + String.join(", ", ranks.stream().map(String::valueOf).toList());
    }
}
