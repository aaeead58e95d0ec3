package dev.jccl.cli.stress;

import dev.jccl.Communicator;
import dev.jccl.cli.LocalRanksOptions;
import dev.jccl.cli.Inputs;
import dev.jccl.cli.tool.OutputOptions;
import dev.jccl.cli.tool.Soak;
import dev.jccl.cli.tool.ToolJob;
import dev.jccl.cli.tool.ToolLaunch;
import dev.jccl.cli.tool.detect.Collapses;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code jccl stress}: back-to-back allreduces for a bounded time, checked every few batches, with
 * busbw per interval written to CSV, collapses (an interval below a fraction of the running median)
 * and their period, if any, reported. A collapse that recurs with a period is the failure mode that
 * shows only after many minutes.
 */
@Command(name = "stress", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Soak test: back-to-back allreduces for --minutes, busbw per --interval to CSV, collapses and their period.",
                "Exit 1 on wrong results or periodic collapse; isolated collapses are a warning."})
public final class StressCommand implements Callable<Integer> {
    static final double MAX_MINUTES = 24 * 60;

    @Spec
    CommandSpec spec;
    @Option(names = "--minutes", defaultValue = "1", paramLabel = "M", description = "how long to run, e.g. 10 or 0.5 (default ${DEFAULT-VALUE})")
    double minutes;
    @Option(names = "--size", defaultValue = "4M", paramLabel = "S", description = "allreduce size (default ${DEFAULT-VALUE})")
    String size;
    @Option(names = "--interval", defaultValue = "1s", paramLabel = "DURATION", description = "busbw is measured per interval (default ${DEFAULT-VALUE})")
    String interval;
    @Option(names = "--check-every", defaultValue = "10", paramLabel = "K",
            description = "check the result of one call in every K batches (default ${DEFAULT-VALUE})")
    int checkEvery;
    @Option(names = "--collapse", defaultValue = "0.5", paramLabel = "FRACTION",
            description = "an interval below this fraction of the running median is a collapse (default ${DEFAULT-VALUE})")
    double fraction;
    @Option(names = "--csv", defaultValue = "jccl-stress.csv", paramLabel = "FILE", description = "busbw per interval (default ${DEFAULT-VALUE})")
    String csv;
    @Mixin
    LocalRanksOptions local = new LocalRanksOptions(2, LocalRanksOptions.AUTO, "0");
    @Mixin
    OutputOptions output = new OutputOptions();

    @Override
    public Integer call() throws Exception {
        if (!(minutes > 0) || minutes > MAX_MINUTES) {
            throw new IllegalArgumentException("--minutes must be more than 0 and at most " + (long) MAX_MINUTES + ", got " + minutes);
        }
        long durationNs = (long) (minutes * 60e9);
        long intervalNs = Inputs.duration("--interval", interval);
        if (intervalNs * 4 > durationNs) {
            throw new IllegalArgumentException("--interval " + interval + " leaves fewer than 4 intervals in --minutes " + minutes);
        }
        Inputs.count("--check-every", checkEvery, 1_000_000);
        if (!(fraction > 0 && fraction < 1)) throw new IllegalArgumentException("--collapse must be in (0, 1), got " + fraction);
        int ranks = ToolLaunch.isRank() ? 1 : Inputs.ranks(local.ranks());
        long bytes = Inputs.size("--size", size, Inputs.maxBufferBytes(1, ranks));
        if (!ToolLaunch.isRank()) return ToolLaunch.startRanks(spec, local, Map.of());
        try (ToolJob job = ToolJob.join(); Communicator comm = job.communicator("stress", Map.of())) {
            boolean bar = job.rank() == 0 && output.progress();
            if (bar) System.out.printf(Locale.ROOT, "# jccl stress: %d ranks, allreduce %s, %.1f min, busbw per %s%n", comm.size(),
                    dev.jccl.util.Sizes.formatBytes(bytes), minutes, interval);
            int[] shown = {-1};
            Soak.Result r = Soak.run(comm, bytes, durationNs, intervalNs, checkEvery, fraction, (iv, index, collapses) -> {
                int pct = (int) Math.min(100, 100 * iv.endS() * 1e9 / durationNs);
                if (bar && pct / 5 != shown[0]) {
                    shown[0] = pct / 5;
                    System.out.println(progressBar(pct, iv.endS(), durationNs / 1e9, iv.busbw(), collapses));
                }
            });
            if (job.rank() != 0) return 0;
            writeCsv(Path.of(csv), r);
            return StressReport.of(r, comm.size(), bytes, fraction, Path.of(csv).toAbsolutePath().toString())
                    .emit(System.out, output.json, output.report);
        }
    }

    static String progressBar(int pct, double doneS, double totalS, double busbw, int collapses) {
        int filled = pct / 5;
        return String.format(Locale.ROOT, "[%s%s] %3d%%  %.0f/%.0f s  busbw %.3f GB/s  collapses %d", "#".repeat(filled),
                ".".repeat(20 - filled), pct, doneS, totalS, busbw, collapses);
    }

    static void writeCsv(Path file, Soak.Result r) throws java.io.IOException {
        StringBuilder b = new StringBuilder("interval,end_s,busbw_gbps,calls,running_median_gbps,collapse\n");
        double[] ref = Collapses.reference(r.series());
        for (int i = 0; i < r.intervals().size(); i++) {
            Soak.Interval iv = r.intervals().get(i);
            b.append(String.format(Locale.ROOT, "%d,%.3f,%.4f,%d,%s,%d%n", i, iv.endS(), iv.busbw(), iv.calls(),
                    Double.isNaN(ref[i]) ? "" : String.format(Locale.ROOT, "%.4f", ref[i]), r.collapses().contains(i) ? 1 : 0));
        }
        if (file.toAbsolutePath().getParent() != null) Files.createDirectories(file.toAbsolutePath().getParent());
        Files.writeString(file, b);
    }
}
