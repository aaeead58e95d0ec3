package dev.jccl.cli.train;

import dev.jccl.DataType;
import dev.jccl.ddp.CommunicatorCollectives;
import dev.jccl.ddp.Sharding;
import dev.jccl.testkit.CommRanks;
import dev.jccl.trace.Timeline;
import dev.jccl.trace.TraceEvent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Data-parallel training of a small network over real communicators (threads as ranks) against the
 * same training in one process on the whole global batch.
 *
 * <p>Tolerance: the two differ only in the order float32 sums are taken (per-rank means averaged vs
 * one mean over the global batch), about 1e-7 relative per step; over 8 steps of SGD with momentum the
 * parameters stay within 2e-5 of each other.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("multiprocess")
class DataParallelTrainingTest {
    static final ModelSpec SMALL = new ModelSpec(new int[] {16, 64, 48, 4}, 5L, 0.05f, 0.9f);
    static final float FP32_TOLERANCE = 2e-5f;

    @TempDir
    Path dir;

    static TrainSettings settings(int ranks, int accum, double clip, DataType precision, Sharding sharding) {
        return new TrainSettings(ranks, 8, 8, accum, clip, precision, true, 4096, sharding, 0);
    }

    /** Runs the settings over {@code provider}; returns every rank's final parameters and step records. */
    static List<Run> train(TrainSettings s, String provider) {
        return CommRanks.run(s.ranks(), CommRanks.knobs("JCCL_TRANSPORT", provider), comm -> {
            try (RankTrainer t = new RankTrainer(SMALL, s, new CommunicatorCollectives(comm), Timeline.DISABLED)) {
                List<StepRecord> records = new java.util.ArrayList<>();
                for (int step = 0; step < s.steps(); step++) records.add(t.step(step));
                return new Run(t.model().params().clone(), records);
            }
        });
    }

    record Run(float[] params, List<StepRecord> records) {}

    static float maxDiff(float[] a, float[] b) {
        float d = 0;
        for (int i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
        return d;
    }

    static void assertAllRanksIdentical(List<Run> runs) {
        for (Run r : runs) assertTrue(java.util.Arrays.equals(runs.get(0).params(), r.params()), "bit-identical parameters on every rank");
    }

    @ParameterizedTest(name = "{0} ranks over {1}")
    @CsvSource({"2, shm", "4, shm", "2, tcp", "4, tcp"})
    void nRanksOfBatchBEqualOneProcessOfBatchNB(int ranks, String provider) {
        TrainSettings s = settings(ranks, 1, 0, DataType.FLOAT32, Sharding.REPLICATED);
        List<Run> runs = train(s, provider);
        assertAllRanksIdentical(runs);
        float[] reference = ReferenceTraining.run(SMALL, s);
        float[] initial = SMALL.model(1).params();
        assertTrue(maxDiff(reference, initial) > 1e-2f, "training moved the parameters");
        assertTrue(maxDiff(runs.get(0).params(), reference) < FP32_TOLERANCE, "max diff " + maxDiff(runs.get(0).params(), reference));
    }

    @Test
    void accumulatingKMicroBatchesEqualsOneKTimesLargerBatch() {
        TrainSettings s = settings(2, 3, 0, DataType.FLOAT32, Sharding.REPLICATED);
        List<Run> runs = train(s, "shm");
        assertAllRanksIdentical(runs);
        assertEquals(3 * 2 * 8, s.globalBatch());
        float diff = maxDiff(runs.get(0).params(), ReferenceTraining.run(SMALL, s));
        assertTrue(diff < FP32_TOLERANCE, "max diff " + diff);
    }

    @ParameterizedTest
    @CsvSource({"REPLICATED", "REDUCE_SCATTER"})
    void clippedTrainingEqualsTheReferenceAndEveryRankSeesTheSameNorm(Sharding sharding) {
        TrainSettings s = settings(4, 1, 0.5, DataType.FLOAT32, sharding);
        List<Run> runs = train(s, "shm");
        assertAllRanksIdentical(runs);
        for (int step = 0; step < s.steps(); step++) {
            double n0 = runs.get(0).records().get(step).gradNorm();
            assertTrue(n0 > 0.5, "the clip is active at step " + step + ": norm " + n0);
            for (Run r : runs) assertEquals(n0, r.records().get(step).gradNorm(), "step " + step + " norm on every rank");
        }
        float diff = maxDiff(runs.get(0).params(), ReferenceTraining.run(SMALL, s));
        assertTrue(diff < FP32_TOLERANCE, "max diff " + diff);
    }

    /** bfloat16 keeps 8 significant bits: each step's gradient is off by up to ~0.4%, so parameters drift by ~1e-3. */
    @Test
    void bfloat16CommunicationTrainsCloseToFloat32() {
        TrainSettings s = settings(4, 1, 0, DataType.BFLOAT16, Sharding.REPLICATED);
        List<Run> runs = train(s, "shm");
        assertAllRanksIdentical(runs);
        float[] reference = ReferenceTraining.run(SMALL, s);
        float diff = maxDiff(runs.get(0).params(), reference);
        assertTrue(diff < 5e-3f, "max diff " + diff);
        assertTrue(diff > 0f, "bfloat16 rounding left a trace");
        float lossFirst = runs.get(0).records().getFirst().loss();
        float lossLast = runs.get(0).records().getLast().loss();
        assertTrue(lossLast < lossFirst, "loss fell from " + lossFirst + " to " + lossLast);
    }

    @Test
    void theSameRunTwiceEndsWithTheSameBits() {
        TrainSettings s = settings(4, 1, 0, DataType.BFLOAT16, Sharding.REPLICATED);
        List<Run> first = train(s, "shm");
        List<Run> second = train(s, "shm");
        assertTrue(java.util.Arrays.equals(first.get(0).params(), second.get(0).params()), "run after run");
        assertAllRanksIdentical(second);
    }

    /** Rank 1 alone injects an infinity into one gradient: every rank skips that step and halves the loss scale. */
    @Test
    void anOverflowOnOneRankSkipsTheStepEverywhere() {
        List<float[]> outcomes = CommRanks.run(4, CommRanks.knobs("JCCL_TRANSPORT", "shm"), comm -> {
            try (var arena = java.lang.foreign.Arena.ofConfined()) {
                var value = arena.allocate(4 * 300, 4);
                var grad = arena.allocate(4 * 300, 4);
                try (var ddp = dev.jccl.ddp.DistributedDataParallel.builder(comm)
                        .param("a", value.asSlice(0, 800), grad.asSlice(0, 800))
                        .param("b", value.asSlice(800, 400), grad.asSlice(800, 400))
                        .bucketBytes(256).communicationType(DataType.FLOAT16)
                        .lossScaling(new dev.jccl.ddp.LossScaler(512f, 2f, 0.5f, 1000)).build()) {
                    float[] seen = new float[6];
                    for (int step = 0; step < 2; step++) {
                        for (long i = 0; i < 300; i++) grad.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i, 0.01f * ddp.lossScale());
                        if (step == 0 && comm.rank() == 1) grad.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 17, Float.POSITIVE_INFINITY);
                        ddp.gradReady("b");
                        ddp.gradReady("a");
                        var r = ddp.finish();
                        seen[3 * step] = r.skipped() ? 1 : 0;
                        seen[3 * step + 1] = ddp.lossScale();
                        seen[3 * step + 2] = grad.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, 5);
                        ddp.zeroGrad();
                    }
                    return seen;
                }
            }
        });
        for (float[] seen : outcomes) {
            assertEquals(1f, seen[0], "step 0 skipped on every rank");
            assertEquals(256f, seen[1], "scale halved on every rank");
            assertEquals(0f, seen[3], "step 1 went through");
            assertEquals(256f, seen[4]);
            assertEquals(0.01f, seen[5], 1e-5f, "averaged and unscaled");
        }
    }

    /** Asserted from recorded events, not timings: bucket 0 is launched while backward of an earlier layer still runs. */
    @Test
    void theFirstBucketsAllreduceStartsBeforeBackwardEnds() {
        TrainSettings s = new TrainSettings(2, 2, 8, 1, 0, DataType.FLOAT32, true, 4096, Sharding.REPLICATED, 0);
        List<List<TraceEvent>> traces = CommRanks.run(2, CommRanks.knobs("JCCL_TRANSPORT", "shm"), comm -> {
            Timeline timeline = Timeline.forRank(comm.rank());
            try (RankTrainer t = new RankTrainer(SMALL, s, new CommunicatorCollectives(comm), timeline)) {
                t.step(0);
                t.step(1);
            }
            return timeline.events();
        });
        for (List<TraceEvent> ev : traces) {
            assertTrue(t(ev, "allreduce bucket 1").size() == 2, "several buckets: " + ev);
            TraceEvent step1 = t(ev, "step").get(1);
            List<TraceEvent> backward = t(ev, "backward").stream().filter(e -> e.startNs() >= step1.startNs()).toList();
            long backwardEnd = backward.stream().mapToLong(TraceEvent::endNs).max().orElseThrow();
            TraceEvent firstBucket = t(ev, "allreduce bucket 0").get(1);
            assertTrue(firstBucket.startNs() < backwardEnd, "bucket 0 left at " + firstBucket.startNs() + ", backward ended at " + backwardEnd);
            TraceEvent fc1 = backward.stream().filter(e -> e.name().equals("fc1")).findFirst().orElseThrow();
            assertTrue(firstBucket.startNs() <= fc1.startNs(), "bucket 0 (last layer) left before backward of fc1 began");
        }
    }

    /** With JCCL_TRACE set the runtime records each channel's chunk sends and reductions on the rank's timeline too. */
    @Test
    void tracingRecordsChunkTransfersAndReductionsPerChannel() {
        TrainSettings s = new TrainSettings(2, 1, 8, 1, 0, DataType.FLOAT32, true, 4096, Sharding.REPLICATED, 0);
        long since = Timeline.toEpochNs(Timeline.nowNs());
        List<List<TraceEvent>> traces = CommRanks.run(2, CommRanks.knobs("JCCL_TRANSPORT", "shm", "JCCL_TRACE", dir.resolve("trace.json").toString()), comm -> {
            Timeline timeline = Timeline.registered(comm.rank());
            try (RankTrainer t = new RankTrainer(SMALL, s, new CommunicatorCollectives(comm), timeline)) {
                t.step(0);
            }
            return timeline.events().stream().filter(e -> e.startNs() >= since).toList();
        });
        for (List<TraceEvent> ev : traces) {
            assertTrue(ev.stream().anyMatch(e -> e.track().equals("ch0 send") && e.name().startsWith("chunk 0 -> rank ")), "sends: " + ev);
            assertTrue(ev.stream().anyMatch(e -> e.track().equals("ch0 reduce")), "reductions: " + ev);
            assertTrue(ev.stream().anyMatch(e -> e.track().equals("allreduce bucket 0")), "buckets on the same timeline");
        }
    }

    private static List<TraceEvent> t(List<TraceEvent> ev, String track) {
        return ev.stream().filter(e -> e.track().equals(track)).toList();
    }
}
