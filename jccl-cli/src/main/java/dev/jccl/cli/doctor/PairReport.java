package dev.jccl.cli.doctor;

import dev.jccl.Communicator;
import dev.jccl.cli.tool.Chart;
import dev.jccl.cli.tool.Finding;
import dev.jccl.cli.tool.Table;
import dev.jccl.cli.tool.ToolReport;
import dev.jccl.cli.tool.detect.SlowRanks;
import dev.jccl.cli.tool.detect.Stats;
import dev.jccl.util.Sizes;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The all-pairs part of doctor: the matrices, the heat map, and the slow rank, host or link named
 * from them (bisecting when ambiguous, except where the suspects are exactly a host's ranks).
 */
final class PairReport {
    private PairReport() {}

    /** Runs on every rank (bisection measures collectively); only rank 0's report is printed. */
    static void add(ToolReport rep, PairMatrix.Result m, Communicator world, long bytes, List<String> socketBytes, List<String> hostOf) {
        int n = world.size();
        List<String> cols = new ArrayList<>(List.of("GB/s | us"));
        for (int j = 0; j < n; j++) cols.add("rank" + j);
        Table t = Table.of("all pairs: bandwidth (GB/s, " + Sizes.formatBytes(bytes) + " each way) | latency (us, 8 B)", cols);
        for (int i = 0; i < n; i++) {
            List<String> row = new ArrayList<>(List.of("rank" + i));
            for (int j = 0; j < n; j++) {
                row.add(i == j ? "-" : String.format(Locale.ROOT, "%.2f | %.1f", m.gbps()[i][j], m.latencyUs()[i][j]));
            }
            t = t.row(row.toArray());
        }
        rep.add(t);
        List<String> labels = IntStream.range(0, n).mapToObj(i -> "rank " + i).toList();
        rep.add(Chart.heatmap("all-pairs bandwidth", "GB/s of a " + Sizes.formatBytes(bytes) + " exchange per pair, one pair at a time",
                labels, m.gbps(), "GB/s"));
        long sockets = socketBytes.stream().mapToLong(Long::parseLong).sum();
        String measured = "; measured during the pair test: " + Sizes.formatBytes(sockets) + " through sockets";
        SlowRanks slow = SlowRanks.fromPairs(m.gbps());
        if (slow.ambiguous() && !slow.wholeHosts(hostOf)) {
            SlowRanks narrowed = SlowRanks.bisect(slow.ranks(), n, group -> PairMatrix.groupBusBw(world, group, bytes));
            if (narrowed.ranks().size() == 2 && slow.ranks().size() == 2) {
                int a = narrowed.ranks().get(0);
                int b = narrowed.ranks().get(1);
                rep.add(Finding.fail("slow link", "link " + a + "-" + b + ": " + slow.reason() + "; " + narrowed.reason(),
                        "check the cable, switch port and NIC between rank " + a + " and rank " + b + " (ethtool, ip -s link)"));
                return;
            }
            slow = new SlowRanks(narrowed.ranks(), List.of(), slow.reason() + "; " + narrowed.reason());
        }
        if (!slow.ranks().isEmpty()) {
            rep.add(Finding.fail(slow.wholeHosts(hostOf) ? "slow host" : "slow rank", slow.named(hostOf) + " slow: " + slow.reason() + measured,
                    "check that host: its link (ethtool, ip -s link), CPU load and throttling; rerun jccl doctor without it"));
        } else if (!slow.links().isEmpty()) {
            List<String> ls = slow.links().stream().map(l -> l[0] + "-" + l[1]).toList();
            rep.add(Finding.fail("slow link", "link(s) " + String.join(", ", ls) + ": " + slow.reason() + measured,
                    "check the cable, switch port and NICs of those pairs (ethtool, ip -s link)"));
        } else {
            double[] all = new double[n * n];
            int k = 0;
            for (double[] row : m.gbps()) for (double v : row) all[k++] = v;
            rep.add(Finding.ok("all pairs", String.format(Locale.ROOT, "median %.2f GB/s; %s", Stats.median(all), slow.reason()) + measured));
        }
    }
}
