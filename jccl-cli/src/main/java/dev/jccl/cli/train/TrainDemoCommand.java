package dev.jccl.cli.train;

import dev.jccl.DataType;
import dev.jccl.cli.LocalRanksOptions;
import dev.jccl.cli.RankJob;
import dev.jccl.cli.demo.RingDemoCommand;
import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.ddp.Sharding;
import dev.jccl.util.Sizes;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code jccl demo}: data-parallel training of a small network on local ranks. Started by hand it
 * relaunches itself as {@code --ranks} processes through the launcher; each rank trains on its share
 * of every batch and rank 0 reports. {@code jccl demo ring} is the ring-pass demo of the transport.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        subcommands = RingDemoCommand.class,
        description = {"Train an MLP (about 1 M parameters) on synthetic data with data parallelism on local ranks over jccl, and report "
                + "loss, accuracy, agreement with single-process training, where step time went and the allreduce bandwidth.",
                "'jccl demo ring' passes registered buffers around a ring instead."})
public final class TrainDemoCommand implements Callable<Integer> {
    @Mixin
    LocalRanksOptions local = new LocalRanksOptions(4, "shm", "300s");

    @Option(names = "--steps", defaultValue = "200", description = "optimizer steps (default ${DEFAULT-VALUE})")
    int steps;

    @Option(names = "--batch", defaultValue = "16", description = "samples per rank per micro-step (default ${DEFAULT-VALUE})")
    int batch;

    @Option(names = "--accum-steps", defaultValue = "1", description = "micro-steps accumulated per optimizer step (default ${DEFAULT-VALUE})")
    int accumSteps;

    @Option(names = "--clip", defaultValue = "0", description = "clip gradients to this global L2 norm; 0 = off (default ${DEFAULT-VALUE})")
    double clip;

    @Option(names = "--precision", defaultValue = "fp32", description = "type gradients travel in: fp32, bf16 or fp16 (fp16 adds dynamic loss scaling)")
    String precision;

    @Option(names = "--bucket-size", defaultValue = "1M", description = "gradient bucket limit (default ${DEFAULT-VALUE}; the model is about 4 MiB)")
    String bucketSize;

    @Option(names = "--sharded", description = "reduce-scatter the gradients; each rank steps its shard, then parameters are all-gathered")
    boolean sharded;

    @Option(names = "--no-overlap", description = "send every bucket only after backward (baseline for the overlap)")
    boolean noOverlap;

    @Option(names = "--trace", arity = "0..1", fallbackValue = "trace.json", paramLabel = "FILE",
            description = "write a Chrome trace (Perfetto, chrome://tracing) of every rank; also JCCL_TRACE=FILE")
    String trace;

    @Option(names = "--report", arity = "0..1", fallbackValue = "report.html", paramLabel = "FILE",
            description = "write a self-contained HTML report: loss curve, per-step time split, one step's timeline")
    String report;

    @Option(names = "--reference-steps", defaultValue = "50",
            description = "steps of single-process training the demo checks against (default ${DEFAULT-VALUE}; it runs on rank 0 after training)")
    int referenceSteps;

    @Override
    public Integer call() {
        int ranks = local.ranks();
        String transport = local.transport();
        TrainSettings settings = settings();
        if (!RankJob.insideJob()) {
            // Rank 0 writes these at the end, after training: a path it cannot write would fail it
            // there, with the other ranks waiting at the closing barrier.
            if (trace != null) checkWritable(Path.of(trace), "--trace");
            if (report != null) checkWritable(Path.of(report), "--report");
            ModelSpec spec = ModelSpec.demo();
            System.out.printf(Locale.ROOT, "jccl demo: data-parallel training, %d ranks on this host over %s%n", ranks, transport);
            System.out.printf(Locale.ROOT, "  model: MLP %s, %,d float32 parameters; data: synthetic (Gaussian blob mixture, %d classes, %d dims)%n",
                    widths(spec), spec.model(1).parameterCount(), spec.widths()[spec.widths().length - 1], spec.widths()[0]);
            System.out.printf(Locale.ROOT, "  %d steps of %d samples (%d ranks x %d%s), gradients as %s%s%s%n", steps, settings.globalBatch(), ranks,
                    batch, accumSteps > 1 ? " x " + accumSteps + " micro-steps" : "", settings.precision().ncclName(),
                    clip > 0 ? ", clipped to norm " + clip : "", noOverlap ? ", buckets sent after backward" : "");
            Map<String, String> env = new HashMap<>();
            local.putTransport(env);
            // Rank 0 trains the single-process reference while the others wait at the closing barrier.
            if (Config.fromEnvironment().entry(Knobs.TIMEOUT_NS).source() == Config.Source.DEFAULT) env.put("JCCL_TIMEOUT", "180s");
            if (trace != null) env.put("JCCL_TRACE", Path.of(trace).toAbsolutePath().toString());
            return local.launch(rankArgs(), env, false);
        }
        return DemoRank.run(ModelSpec.demo(), settings, referenceSteps, report == null ? null : Path.of(report).toAbsolutePath(), transport);
    }

    /** Refuses an output file that cannot be created or written, before any rank starts, by opening it. */
    static void checkWritable(Path file, String option) {
        Path abs = file.toAbsolutePath();
        if (Files.isDirectory(abs)) throw new IllegalArgumentException(option + " " + file + " is a directory");
        boolean existed = Files.exists(abs);
        try (var _ = Files.newByteChannel(abs, StandardOpenOption.CREATE,
                StandardOpenOption.WRITE)) {
            // opened for writing: rank 0 will be able to write it
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(option + " " + file + " cannot be written: no directory " + abs.getParent());
        } catch (AccessDeniedException e) {
            throw new IllegalArgumentException(option + " " + file + " cannot be written: permission denied");
        } catch (IOException | SecurityException e) {
            throw new IllegalArgumentException(option + " " + file + " cannot be written: " + e);
        }
        if (!existed) {
            try {
                Files.deleteIfExists(abs);
            } catch (IOException ignored) {
                // an empty file left behind is harmless; rank 0 overwrites it
            }
        }
    }

    private TrainSettings settings() {
        int ranks = local.ranks();
        String transport = local.transport();
        if (Providers.byName(transport).isEmpty()) {
            throw new IllegalArgumentException("--transport must name a provider, one of "
                    + Providers.all().stream().map(VerbsProvider::name).toList() + ", got " + transport);
        }
        DataType type = DataType.parse(precision);
        if (referenceSteps < 0) throw new IllegalArgumentException("--reference-steps must be >= 0, got " + referenceSteps);
        int warmup = Math.min(20, steps / 10);
        return new TrainSettings(ranks, steps, batch, accumSteps, clip, type, !noOverlap, Sizes.parseBytes(bucketSize),
                sharded ? Sharding.REDUCE_SCATTER : Sharding.REPLICATED, warmup);
    }

    private List<String> rankArgs() {
        List<String> a = new ArrayList<>(List.of("demo", "--ranks", Integer.toString(local.ranks()), "--transport", local.transport(),
                "--steps", Integer.toString(steps), "--batch", Integer.toString(batch), "--accum-steps", Integer.toString(accumSteps),
                "--clip", Double.toString(clip), "--precision", precision, "--bucket-size", bucketSize,
                "--reference-steps", Integer.toString(referenceSteps)));
        if (sharded) a.add("--sharded");
        if (noOverlap) a.add("--no-overlap");
        if (report != null) a.add("--report=" + Path.of(report).toAbsolutePath());
        return a;
    }

    static String widths(ModelSpec spec) {
        StringBuilder sb = new StringBuilder();
        for (int w : spec.widths()) sb.append(sb.isEmpty() ? "" : "-").append(w);
        return sb.toString();
    }
}
