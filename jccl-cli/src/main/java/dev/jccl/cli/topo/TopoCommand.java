package dev.jccl.cli.topo;

import dev.jccl.cli.LocalRanksOptions;
import dev.jccl.cli.tool.Chart;
import dev.jccl.cli.tool.Finding;
import dev.jccl.cli.tool.Links;
import dev.jccl.cli.tool.Numa;
import dev.jccl.cli.tool.OutputOptions;
import dev.jccl.cli.tool.RankFacts;
import dev.jccl.cli.tool.Table;
import dev.jccl.cli.tool.ToolJob;
import dev.jccl.cli.tool.ToolLaunch;
import dev.jccl.cli.tool.ToolReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code jccl topo}: the ranks-by-ranks matrix of what connects each pair, like
 * {@code nvidia-smi topo -m}, with each rank's host, NUMA node, CPU affinity and interface, and a
 * flag on a rank whose CPUs and memory sit on different NUMA nodes.
 */
@Command(name = "topo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Topology of the job: which transport connects each pair of ranks, and where each rank sits.",
                "SELF = the rank itself, SHM = shared memory on one host, NET(iface) = tcp over that interface."})
public final class TopoCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    LocalRanksOptions local = new LocalRanksOptions(2, LocalRanksOptions.AUTO, "120s");
    @Mixin
    OutputOptions output = new OutputOptions();

    @Override
    public Integer call() throws Exception {
        if (!ToolLaunch.isRank()) return ToolLaunch.startRanks(spec, local, Map.of());
        try (ToolJob job = ToolJob.join()) {
            List<RankFacts> facts = RankFacts.gather(job, "topo-facts", job.localSize());
            if (job.rank() != 0) return 0;
            return report(facts).emit(System.out, output.json, output.report);
        }
    }

    static ToolReport report(List<RankFacts> facts) {
        int n = facts.size();
        long hosts = facts.stream().map(f -> f.get("hostId")).distinct().count();
        ToolReport r = new ToolReport("topo", n + " ranks on " + hosts + " host(s)");
        List<String> cols = new ArrayList<>(List.of(""));
        for (int j = 0; j < n; j++) cols.add("rank" + j);
        Table m = Table.of("connection matrix", cols);
        List<Chart.Node> nodes = new ArrayList<>();
        List<Chart.Edge> edges = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<String> row = new ArrayList<>(List.of("rank" + i));
            for (int j = 0; j < n; j++) {
                String label = Links.label(facts.get(i), facts.get(j));
                row.add(label);
                if (j > i) edges.add(new Chart.Edge("rank " + i, "rank " + j, label));
            }
            m = m.row(row.toArray());
            double angle = 2 * Math.PI * i / n;
            nodes.add(new Chart.Node("rank " + i, facts.get(i).get("hostId"), 300 + 200 * Math.cos(angle), 200 + 150 * Math.sin(angle)));
        }
        r.add(m);
        Table ranks = Table.of("ranks", List.of("rank", "host", "pid", "NUMA node", "CPU affinity", "memory nodes", "interface", "flag"));
        for (RankFacts f : facts) {
            int numaNodes = Integer.parseInt(f.get("numaNodes").isEmpty() ? "1" : f.get("numaNodes"));
            boolean bad = Numa.mismatched(f.get("cpuNodes"), f.get("mems"), numaNodes);
            String iface = f.get("device.tcp").isEmpty() ? "-" : f.get("device.tcp") + " " + f.get("address.tcp");
            ranks = ranks.row(f.rank(), f.get("hostId"), f.get("pid"), f.get("cpuNodes"), f.get("cpus"), f.get("mems"), iface,
                    bad ? "NUMA MISMATCH" : "-");
            if (bad) {
                r.add(Finding.warn("numa rank " + f.rank(), "CPUs on node(s) " + f.get("cpuNodes") + ", memory on node(s) " + f.get("mems"),
                        "bind CPUs and memory to one node, e.g. numactl --cpunodebind=N --membind=N"));
            }
        }
        r.add(ranks);
        r.add(Table.of("legend", List.of("mark", "meaning"))
                .row("SELF", "the rank itself")
                .row("SHM", "shared memory (shm provider): same host, one copy per hop")
                .row("NET(iface)", "tcp sockets over that interface: kernel copies on both ends")
                .row("NONE", "no provider connects the pair (see jccl devinfo)")
                .row("NUMA MISMATCH", "the rank's CPUs and memory sit on different NUMA nodes (several nodes in /sys only)"));
        r.add(Chart.graph("ranks and links", "each edge is labelled with the transport of that pair", nodes, edges));
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                if (Links.label(facts.get(i), facts.get(j)).equals("NONE")) {
                    r.add(Finding.fail("link " + i + "-" + j, "no provider connects rank " + i + " and rank " + j,
                            "check JCCL_TRANSPORT and jccl devinfo on both hosts"));
                }
            }
        }
        if (r.findings().isEmpty()) r.add(Finding.ok("topology", "every pair connected; no NUMA mismatch"));
        return r;
    }
}
