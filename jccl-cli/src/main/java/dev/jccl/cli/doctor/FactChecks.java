package dev.jccl.cli.doctor;

import dev.jccl.cli.tool.Finding;
import dev.jccl.cli.tool.Limits;
import dev.jccl.cli.tool.Links;
import dev.jccl.cli.tool.RankFacts;
import dev.jccl.config.Knobs;
import dev.jccl.util.Sizes;
import dev.jccl.verbs.PathKind;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsProvider;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/** Doctor's checks that need no measurement, only what every rank reported about itself (interfaces: {@link InterfaceChecks}). */
final class FactChecks {
    /** Channels a FIFO may be planned for, per peer: the tuner's most on one host. */
    static final int PLANNED_CHANNELS = 8;

    private FactChecks() {}

    /**
     * How good provider {@code p}'s path between {@code a} and {@code b} is, lower first, by the kind
     * the provider itself reports for their localities ({@link PathKind}), as the runtime ranks
     * providers: UCX is better than tcp only where both ends found an RDMA device, so UCX over plain
     * sockets is no faster path that tcp silently fell back from.
     */
    static int speed(String p, RankFacts a, RankFacts b) {
        Optional<VerbsProvider> v = Providers.byName(p);
        String la = a.providers().get(p);
        String lb = b.providers().get(p);
        return v.isEmpty() || la == null || lb == null ? Integer.MAX_VALUE : v.get().pathKind(la, lb).ordinal();
    }

    static List<Finding> transport(List<RankFacts> f) {
        List<Finding> out = new ArrayList<>();
        Map<String, List<String>> fallbacks = new LinkedHashMap<>();
        Map<String, List<String>> used = new TreeMap<>();
        Map<String, Set<String>> where = new TreeMap<>();
        for (int i = 0; i < f.size(); i++) {
            for (int j = i + 1; j < f.size(); j++) {
                Optional<String> chosen = Links.chosen(f.get(i), f.get(j));
                String pair = i + "-" + j;
                if (chosen.isEmpty()) {
                    out.add(Finding.fail("transport " + pair, "no provider connects rank " + i + " (" + f.get(i).get("allowed") + ") and rank " + j
                            + " (" + f.get(j).get("allowed") + ")", "check JCCL_TRANSPORT on both, and jccl devinfo"));
                    continue;
                }
                used.computeIfAbsent(chosen.get(), k -> new ArrayList<>()).add(pair);
                where.computeIfAbsent(chosen.get(), k -> new TreeSet<>())
                        .add(f.get(i).get("hostId").equals(f.get(j).get("hostId")) ? "within a host" : "across hosts");
                String best = fastest(f.get(i), f.get(j)).orElse(chosen.get());
                if (speed(best, f.get(i), f.get(j)) < speed(chosen.get(), f.get(i), f.get(j))) {
                    fallbacks.computeIfAbsent(chosen.get() + ">" + best, k -> new ArrayList<>()).add(pair);
                }
            }
        }
        fallbacks.forEach((k, pairs) -> {
            String chosen = k.substring(0, k.indexOf('>'));
            String best = k.substring(k.indexOf('>') + 1);
            out.add(Finding.fail("transport", "pairs " + list(pairs) + " use " + chosen + " although " + best + " reaches between them"
                    + " (JCCL_TRANSPORT=" + f.getFirst().knobs().getOrDefault("JCCL_TRANSPORT", "") + ")",
                    "unset JCCL_TRANSPORT, or list " + best + " first (JCCL_TRANSPORT=" + best + "," + chosen + ")"));
        });
        if (out.isEmpty()) {
            List<String> parts = new ArrayList<>();
            used.forEach((p, pairs) -> parts.add(p + " for " + list(pairs) + " (" + String.join(" and ", where.get(p)) + ")"));
            out.add(Finding.ok("transport", parts.isEmpty() ? "one rank: no pairs" : String.join("; ", parts) + ", the fastest that reaches"));
        }
        return out;
    }

    private static Optional<String> fastest(RankFacts a, RankFacts b) {
        String best = null;
        for (String p : a.providers().keySet()) {
            if (!b.providers().containsKey(p)) continue;
            RankFacts aa = new RankFacts(a.rank(), Map.of("allowed", p, "provider." + p, a.providers().get(p)));
            RankFacts bb = new RankFacts(b.rank(), Map.of("allowed", p, "provider." + p, b.providers().get(p)));
            if (Links.chosen(aa, bb).isPresent() && (best == null || speed(p, a, b) < speed(best, a, b))) best = p;
        }
        return Optional.ofNullable(best);
    }

    static List<Finding> resources(List<RankFacts> f) {
        List<Finding> out = new ArrayList<>();
        RankFacts r = f.getFirst();
        int local = (int) f.stream().filter(x -> x.get("hostId").equals(r.get("hostId"))).count();
        long buff = Sizes.parseBytes(r.knobs().getOrDefault("JCCL_BUFFSIZE", "4M"));
        long planned = (long) local * Math.max(0, local - 1) * buff * PLANNED_CHANNELS;
        long free = Long.parseLong(r.get("shmFree").isEmpty() ? "-1" : r.get("shmFree"));
        String shm = "free " + (free < 0 ? "unknown" : Sizes.formatBytes(free)) + ", FIFOs planned up to " + Sizes.formatBytes(planned)
                + " (" + local + " ranks x " + Math.max(0, local - 1) + " peers x " + PLANNED_CHANNELS + " channels x " + Sizes.formatBytes(buff) + ")";
        if (free >= 0 && free < planned) out.add(Finding.fail("/dev/shm", shm, "grow /dev/shm (mount -o remount,size=...) or lower JCCL_BUFFSIZE"));
        else if (free >= 0 && free < 2 * planned) out.add(Finding.warn("/dev/shm", shm, "leave room: grow /dev/shm or lower JCCL_BUFFSIZE"));
        else out.add(Finding.ok("/dev/shm", shm));
        long files = Limits.value(r.get("limit.openFiles"));
        long need = 256 + 2L * f.size() * PLANNED_CHANNELS * Long.parseLong(r.knob(Knobs.QPS_PER_CONNECTION));
        String filesText = "limit " + r.get("limit.openFiles") + ", about " + need + " needed";
        if (files >= 0 && files < need) out.add(Finding.fail("open files", filesText, "ulimit -n " + Math.max(need, 65536)));
        else if (files >= 0 && files < 4096) out.add(Finding.warn("open files", filesText, "ulimit -n 65536"));
        else out.add(Finding.ok("open files", filesText));
        long locked = Limits.value(r.get("limit.lockedMemory"));
        boolean rdma = f.stream().anyMatch(x -> x.providers().keySet().stream().anyMatch(p -> speed(p, x, x) == PathKind.RDMA.ordinal()));
        String lockedText = "limit " + (locked == Long.MAX_VALUE ? "unlimited" : locked < 0 ? "unknown" : Sizes.formatBytes(locked));
        if (rdma && locked >= 0 && locked < (1L << 30)) {
            out.add(Finding.warn("locked memory", lockedText + "; an RDMA provider registers (pins) every buffer", "ulimit -l unlimited"));
        } else {
            out.add(Finding.ok("locked memory", lockedText + (rdma ? "" : "; no RDMA provider here, so nothing is pinned")));
        }
        int cores = Integer.parseInt(r.get("cores").isEmpty() ? "1" : r.get("cores"));
        String load = local + " rank(s) on " + cores + " core(s) of host " + r.get("hostId");
        if (local > cores) out.add(Finding.warn("ranks per core", load + ": oversubscribed, spinning progress threads steal each other's time",
                "start at most one rank per core, or JCCL_SPIN=0"));
        else out.add(Finding.ok("ranks per core", load));
        return out;
    }

    static List<Finding> consistency(List<RankFacts> f) {
        List<Finding> out = new ArrayList<>();
        Map<String, List<String>> versions = group(f, "version");
        if (versions.size() > 1) out.add(Finding.fail("version", "jccl versions differ: " + show(versions), "run the same jccl build on every host"));
        List<String> differing = new ArrayList<>();
        for (String knob : f.getFirst().knobs().keySet()) {
            if (knob.equals("JCCL_SOCKET_IFNAME") || knob.equals("JCCL_HOST_ID")) continue; // per host by nature; interfaces checks them
            Map<String, List<String>> values = group(f, "knob." + knob);
            if (values.size() > 1) differing.add(knob + ": " + show(values));
        }
        if (!differing.isEmpty()) {
            out.add(Finding.fail("knobs", String.join("; ", differing), "export the same JCCL_* values to every rank (the launcher passes its own)"));
        }
        if (out.isEmpty()) {
            out.add(Finding.ok("consistency", "jccl " + f.getFirst().get("version") + " and the same knob values on all " + f.size() + " ranks"));
        }
        return out;
    }

    private static Map<String, List<String>> group(List<RankFacts> f, String key) {
        Map<String, List<String>> by = new LinkedHashMap<>();
        for (RankFacts r : f) by.computeIfAbsent(r.get(key), k -> new ArrayList<>()).add(Integer.toString(r.rank()));
        return by;
    }

    private static String show(Map<String, List<String>> by) {
        List<String> parts = new ArrayList<>();
        by.forEach((v, ranks) -> parts.add("'" + v + "' on rank(s) " + list(ranks)));
        return String.join(", ", parts);
    }

    private static String list(List<String> items) {
        return items.size() <= 6 ? String.join(", ", items) : String.join(", ", items.subList(0, 6)) + " and " + (items.size() - 6) + " more";
    }
}
