package dev.jccl.cli.train;

import dev.jccl.Communicator;
import dev.jccl.Jccl;
import dev.jccl.cli.RankJob;
import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.ddp.CommunicatorCollectives;
import dev.jccl.trace.ChromeTrace;
import dev.jccl.trace.Timeline;
import dev.jccl.trace.TraceEvent;
import dev.jccl.trace.TraceEventCodec;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * What each rank of {@code jccl demo} does: join, train, then agree on the results. Rank 0 also
 * evaluates, trains the single-process reference, prints the summary and writes the trace and report.
 */
final class DemoRank {
    private DemoRank() {}

    /** The demo's parameters after {@code afterSteps} steps against the single-process reference's. */
    record Comparison(int afterSteps, float maxDiff) {}

    static int run(ModelSpec spec, TrainSettings settings, int referenceSteps, Path reportFile, String transport) {
        int[] checkpoints = java.util.stream.IntStream.of(1, 10, referenceSteps)
                .filter(k -> k >= 1 && k <= Math.min(referenceSteps, settings.steps())).distinct().sorted().toArray();
        Config config = Config.fromEnvironment();
        RankJob.configureLog(config);
        String traceFile = config.get(Knobs.TRACE);
        try (Communicator comm = Jccl.init()) {
            if (comm.size() != settings.ranks()) {
                throw new IllegalStateException("launched with " + comm.size() + " ranks but --ranks is " + settings.ranks());
            }
            boolean lead = comm.rank() == 0;
            // The registered timeline, so spans the collective runtime records for this rank land in it too.
            Timeline timeline = traceFile.isEmpty() && reportFile == null ? Timeline.DISABLED : Timeline.registered(comm.rank());
            // Rank 0 writes every rank's timeline into the one JCCL_TRACE file: no per-rank files at close.
            if (!traceFile.isEmpty()) timeline.takeOverWriting();
            List<StepRecord> records = new ArrayList<>();
            Evaluation before = null;
            Evaluation after = null;
            float[] params;
            List<float[]> snapshots = new ArrayList<>();
            try (RankTrainer trainer = new RankTrainer(spec, settings, new CommunicatorCollectives(comm), timeline)) {
                float[] initial = trainer.model().params().clone();
                if (lead) System.out.print(trainer.ddp().bucketPlan());
                try (ProgressLine progress = lead ? ProgressLine.open(settings.steps(), System.out) : null) {
                    for (int step = 0; step < settings.steps(); step++) {
                        StepRecord r = trainer.step(step);
                        records.add(r);
                        for (int k : checkpoints) if (lead && k == step + 1) snapshots.add(trainer.model().params().clone());
                        if (progress != null) {
                            progress.update(step, r.loss(), settings.globalBatch() / (r.stepNs() / 1e9), r.stepNs() / 1e6, r.skipped());
                        }
                    }
                }
                params = trainer.model().params().clone();
                if (lead) {
                    // Evaluated after training, when the JIT has compiled the model: the start from a copy.
                    after = Evaluation.of(trainer.model(), spec.data(), Evaluation.SAMPLES);
                    System.arraycopy(initial, 0, trainer.model().params(), 0, initial.length);
                    before = Evaluation.of(trainer.model(), spec.data(), Evaluation.SAMPLES);
                }
            }
            long[] checksums = RankGather.longs(comm, checksum(params));
            List<TraceEvent> events = gatherEvents(comm, timeline);
            if (lead) {
                List<float[]> reference = ReferenceTraining.run(spec, settings, checkpoints);
                List<Comparison> comparisons = new ArrayList<>();
                for (int i = 0; i < checkpoints.length; i++) comparisons.add(new Comparison(checkpoints[i], maxDiff(snapshots.get(i), reference.get(i))));
                DemoSummary summary = new DemoSummary(spec, settings, transport, before, after, checksums,
                        comparisons, StepStats.of(records, settings.warmupSteps(), settings.ranks()));
                summary.print(System.out);
                writeOutputs(traceFile, reportFile, events, records, summary);
            }
            comm.barrier().await();
        }
        return 0;
    }

    /** CRC-32C over the float32 bits of every parameter, in order. */
    static long checksum(float[] params) {
        CRC32C crc = new CRC32C();
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate(params.length * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        buf.asFloatBuffer().put(params);
        crc.update(buf);
        return crc.getValue();
    }

    static float maxDiff(float[] a, float[] b) {
        float d = 0;
        for (int i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
        return d;
    }

    private static List<TraceEvent> gatherEvents(Communicator comm, Timeline timeline) {
        if (!timeline.enabled()) return List.of();
        List<TraceEvent> all = new ArrayList<>();
        for (byte[] b : RankGather.bytes(comm, TraceEventCodec.encode(timeline.events()))) all.addAll(TraceEventCodec.decode(b));
        return all;
    }

    private static void writeOutputs(String traceFile, Path reportFile, List<TraceEvent> events, List<StepRecord> records,
                                     DemoSummary summary) {
        try {
            if (!traceFile.isEmpty()) {
                ChromeTrace.write(Path.of(traceFile), events);
                System.out.println("trace: " + traceFile + " (" + events.size() + " events; open in https://ui.perfetto.dev or chrome://tracing)");
            }
            if (reportFile != null) {
                ReportHtml.write(reportFile, summary, records, events);
                System.out.println("report: " + reportFile);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("writing the trace or report: " + e.getMessage(), e);
        }
    }
}
