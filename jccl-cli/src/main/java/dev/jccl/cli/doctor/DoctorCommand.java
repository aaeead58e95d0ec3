package dev.jccl.cli.doctor;

import dev.jccl.Communicator;
import dev.jccl.cli.LocalRanksOptions;
import dev.jccl.cli.stress.StressReport;
import dev.jccl.cli.tool.Finding;
import dev.jccl.cli.Inputs;
import dev.jccl.cli.tool.Links;
import dev.jccl.cli.tool.OutputOptions;
import dev.jccl.cli.tool.RankFacts;
import dev.jccl.cli.tool.Soak;
import dev.jccl.cli.tool.Sweep;
import dev.jccl.cli.tool.SweptKnob;
import dev.jccl.cli.tool.ToolJob;
import dev.jccl.cli.tool.ToolLaunch;
import dev.jccl.cli.tool.ToolReport;
import dev.jccl.cli.tool.detect.Collapses;
import dev.jccl.trace.DataPathCounters;
import dev.jccl.util.Sizes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * {@code jccl doctor}: the checks an engineer runs on a new cluster, one line each (OK, WARN or
 * FAIL, the evidence, the fix): transport per pair (a silent tcp fallback FAILs), interfaces,
 * resources, consistency across ranks, the all-pairs matrix naming a slow rank or link, the QP and
 * buffer-size knees, and a short soak.
 */
@Command(name = "doctor", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Check the job: transports, interfaces, resources, consistency, all-pairs bandwidth, QP and buffer knees, a soak.",
                "One line per check: OK / WARN / FAIL, the evidence, the fix. Exit 1 when anything FAILs."})
public final class DoctorCommand implements Callable<Integer> {
    static final Set<String> CHECKS = Set.of("transport", "interfaces", "resources", "consistency", "pairs", "qps", "buffsize", "soak");

    @Spec
    CommandSpec spec;
    @Option(names = "--soak", defaultValue = "30s", paramLabel = "DURATION", description = "soak length; 0 skips it (default ${DEFAULT-VALUE})")
    String soak;
    @Option(names = "--skip", split = ",", paramLabel = "CHECK", description = "checks to skip: transport, interfaces, resources, consistency, "
            + "pairs, qps, buffsize, soak")
    List<String> skip = List.of();
    @Option(names = "--pair-size", defaultValue = "4M", paramLabel = "S", description = "bytes per pair transfer (default ${DEFAULT-VALUE})")
    String pairSize;
    @Option(names = "--sweep-size", defaultValue = "16M", paramLabel = "S",
            description = "allreduce size of the QP and buffer sweeps (default ${DEFAULT-VALUE})")
    String sweepSize;
    @Mixin
    LocalRanksOptions local = new LocalRanksOptions(2, LocalRanksOptions.AUTO, "600s");
    @Mixin
    OutputOptions output = new OutputOptions();

    @Override
    public Integer call() throws Exception {
        for (String s : skip) {
            if (!CHECKS.contains(s)) {
                throw new IllegalArgumentException("--skip: unknown check '" + s + "'; known: " + String.join(", ", CHECKS.stream().sorted().toList()));
            }
        }
        long soakNs = Inputs.durationOrZero("--soak", soak);
        int ranks = ToolLaunch.isRank() ? 1 : Inputs.ranks(local.ranks());
        long pairBytes = Inputs.size("--pair-size", pairSize, Inputs.maxBufferBytes(1, ranks));
        long sweepBytes = Inputs.size("--sweep-size", sweepSize, Inputs.maxBufferBytes(2, ranks));
        if (!ToolLaunch.isRank()) return ToolLaunch.startRanks(spec, local, Map.of());
        try (ToolJob job = ToolJob.join()) {
            boolean talk = job.rank() == 0 && output.progress();
            List<RankFacts> facts = RankFacts.gather(job, "doctor-facts", job.localSize());
            ToolReport rep = new ToolReport("doctor", job.size() + " ranks on " + facts.stream().map(f -> f.get("hostId")).distinct().count()
                    + " host(s), transport " + facts.getFirst().knobs().getOrDefault("JCCL_TRANSPORT", "").replaceFirst("^$", "auto"));
            if (!skipped("transport")) FactChecks.transport(facts).forEach(rep::add);
            if (!skipped("interfaces")) InterfaceChecks.check(facts).forEach(rep::add);
            if (!skipped("resources")) FactChecks.resources(facts).forEach(rep::add);
            if (!skipped("consistency")) FactChecks.consistency(facts).forEach(rep::add);
            try (Communicator world = job.communicator("doctor", Map.of())) {
                if (!skipped("pairs") && world.size() > 1) {
                    say(talk, "all-pairs bandwidth and latency");
                    DataPathCounters.Snapshot before = DataPathCounters.snapshot();
                    PairMatrix.Result m = PairMatrix.measure(job, world, pairBytes);
                    long socketBytes = DataPathCounters.snapshot().since(before).get(DataPathCounters.Counter.SOCKET_BYTES_WRITTEN);
                    List<String> sockets = job.gather("doctor-sockets", Long.toString(socketBytes));
                    PairReport.add(rep, m, world, pairBytes, sockets, facts.stream().map(f -> f.get("hostId")).toList());
                }
                if (!skipped("soak") && soakNs > 0) {
                    say(talk, "soak for " + soak);
                    Soak.Result r = Soak.run(world, 4L << 20, soakNs, 1_000_000_000L, 10, Collapses.DEFAULT_FRACTION, (iv, i, c) -> { });
                    StressReport.findings(rep, r, Collapses.DEFAULT_FRACTION);
                    rep.add(StressReport.chart(r));
                }
            }
            boolean tcp = anyPairUses(facts, "tcp");
            if (!skipped("qps")) {
                if (tcp) {
                    say(talk, "sweeping JCCL_QPS_PER_CONNECTION");
                    knee(rep, Sweep.run(job, "doctor", SweptKnob.QPS, List.of(1L, 2L, 4L, 8L, 16L), List.of(sweepBytes), 3, Map.of()), facts);
                } else {
                    rep.add(Finding.ok("qps knee", "skipped: no pair uses tcp, and queue pairs per connection spread tcp sockets only"));
                }
            }
            if (!skipped("buffsize") && job.size() > 1) {
                say(talk, "sweeping JCCL_BUFFSIZE");
                knee(rep, Sweep.run(job, "doctor", SweptKnob.BUFFSIZE, List.of(1L << 20, 2L << 20, 4L << 20, 8L << 20), List.of(sweepBytes), 3,
                        Map.of()), facts);
            }
            if (job.rank() != 0) return 0;
            return rep.emit(System.out, output.json, output.report);
        }
    }

    private boolean skipped(String check) {
        return skip.contains(check);
    }

    private static void say(boolean talk, String what) {
        if (talk) System.out.println("# doctor: " + what + "...");
    }

    private static boolean anyPairUses(List<RankFacts> f, String provider) {
        for (int i = 0; i < f.size(); i++) {
            for (int j = i + 1; j < f.size(); j++) if (Links.chosen(f.get(i), f.get(j)).orElse("").equals(provider)) return true;
        }
        return false;
    }

    /** The knee finding: WARN when the value in use is more than 5% below the knee's busbw. */
    private static void knee(ToolReport rep, Sweep.Result r, List<RankFacts> facts) {
        rep.add(r.table()).add(r.chart());
        SweptKnob k = r.knob();
        String currentText = facts.getFirst().knobs().getOrDefault(k.knob(), "");
        long current = k.bytes() ? Sizes.parseBytes(currentText) : Long.parseLong(currentText);
        long rec = r.recommended();
        double best = r.points().stream().filter(p -> p.value() == rec).findFirst().orElseThrow().busbw()[0];
        var now = r.points().stream().filter(p -> p.value() == current).findFirst();
        String check = k == SweptKnob.QPS ? "qps knee" : "buffsize knee";
        String evidence = "knee at " + k.knob() + "=" + k.show(rec) + " (" + String.format(java.util.Locale.ROOT, "%.3f", best) + " GB/s): " + r.why()[0];
        if (now.isPresent() && now.get().busbw()[0] * 1.05 < best) {
            rep.add(Finding.warn(check, evidence + "; the value in use, " + k.show(current) + ", gives "
                    + String.format(java.util.Locale.ROOT, "%.3f", now.get().busbw()[0]) + " GB/s", "export " + k.knob() + "=" + rec));
        } else {
            rep.add(Finding.ok(check, evidence + "; the value in use, " + k.show(current) + ", is within 5%"));
        }
    }
}
