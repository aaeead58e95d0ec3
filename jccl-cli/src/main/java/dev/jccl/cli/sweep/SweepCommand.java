package dev.jccl.cli.sweep;

import dev.jccl.cli.LocalRanksOptions;
import dev.jccl.cli.tool.Finding;
import dev.jccl.cli.Inputs;
import dev.jccl.cli.tool.OutputOptions;
import dev.jccl.cli.tool.Sweep;
import dev.jccl.cli.tool.SweptKnob;
import dev.jccl.cli.tool.ToolJob;
import dev.jccl.cli.tool.ToolLaunch;
import dev.jccl.cli.tool.ToolReport;
import dev.jccl.cli.tool.Verdict;
import dev.jccl.util.Sizes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code jccl sweep qps|buffsize|channels|chunksize}: allreduce busbw against the values of one knob,
 * the knee (where more stops helping by more than 5%) and the value to use. Doctor runs the same code.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Sweep one knob and find the knee: qps (JCCL_QPS_PER_CONNECTION), buffsize (JCCL_BUFFSIZE),",
                "channels (JCCL_NCHANNELS) or chunksize (JCCL_CHUNKSIZE). The knee is the smallest value that no larger",
                "value beats by more than 5%; it is the recommendation (the largest knee over the sizes)."})
public final class SweepCommand implements Callable<Integer> {
    static final int MAX_VALUES = 32;

    @Spec
    CommandSpec spec;
    @Parameters(index = "0", paramLabel = "KNOB", description = "qps, buffsize, channels or chunksize")
    String knobName;
    @Option(names = "--values", split = ",", paramLabel = "V", description = "values to try (default: the knob's usual ladder)")
    List<String> values;
    @Option(names = "--sizes", split = ",", paramLabel = "SIZE", defaultValue = "1M,16M",
            description = "allreduce sizes to time at each value (default ${DEFAULT-VALUE})")
    List<String> sizes;
    @Option(names = {"-n", "--iters"}, defaultValue = "5", description = "timed calls per size, more at small sizes (default ${DEFAULT-VALUE})")
    int iters;
    @Mixin
    LocalRanksOptions local = new LocalRanksOptions(2, LocalRanksOptions.AUTO, "600s");
    @Mixin
    OutputOptions output = new OutputOptions();

    @Override
    public Integer call() throws Exception {
        SweptKnob knob = SweptKnob.parse(knobName);
        List<Long> vs = (values == null ? knob.defaults() : values).stream().map(v -> knob.parse("--values", v)).sorted().distinct().toList();
        if (vs.size() > MAX_VALUES) throw new IllegalArgumentException("--values: at most " + MAX_VALUES + " values, got " + vs.size());
        Inputs.count("-n/--iters", iters, 100_000);
        int ranks = ToolLaunch.isRank() ? 1 : Inputs.ranks(local.ranks());
        long max = Inputs.maxBufferBytes(2, ranks);
        List<Long> ss = sizes.stream().map(s -> Inputs.size("--sizes", s, max)).toList();
        if (!ToolLaunch.isRank()) return ToolLaunch.startRanks(spec, local, Map.of());
        try (ToolJob job = ToolJob.join()) {
            Sweep.Result r = Sweep.run(job, "sweep", knob, vs, ss, iters, Map.of());
            if (job.rank() != 0) return 0;
            return report(r, job.size(), System.getenv().getOrDefault("JCCL_TRANSPORT", "auto")).emit(System.out, output.json, output.report);
        }
    }

    static ToolReport report(Sweep.Result r, int ranks, String transport) {
        ToolReport rep = new ToolReport("sweep", String.format("%s over %d ranks (transport %s), sizes %s", r.knob().knob(), ranks,
                transport.isEmpty() ? "auto" : transport, String.join(", ", r.sizes().stream().map(Sizes::formatBytes).toList())));
        rep.add(r.table()).add(r.chart());
        for (int i = 0; i < r.why().length; i++) rep.add(Finding.ok("knee at " + Sizes.formatBytes(r.sizes().get(i)), r.why()[i]));
        rep.add(new Finding("recommendation", Verdict.OK, r.knob().knob() + "=" + r.knob().show(r.recommended()),
                "export " + r.knob().knob() + "=" + (r.knob().bytes() ? Sizes.formatBytes(r.recommended()).replace(" ", "") : r.recommended())));
        rep.json(w -> r.json(w));
        return rep;
    }
}
