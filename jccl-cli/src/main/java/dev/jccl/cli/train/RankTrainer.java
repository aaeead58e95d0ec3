package dev.jccl.cli.train;

import dev.jccl.DataType;
import dev.jccl.ddp.DistributedDataParallel;
import dev.jccl.ddp.GradRange;
import dev.jccl.ddp.GradientCollectives;
import dev.jccl.ddp.LossScaler;
import dev.jccl.ddp.StepResult;
import dev.jccl.trace.Timeline;

import java.util.HashMap;
import java.util.Map;

/**
 * One rank's data-parallel training: draws its rows of each global batch, runs forward and backward
 * (gradient hooks hand each finished parameter to {@link DistributedDataParallel}), then clips and
 * steps the optimizer on the elements it owns.
 */
public final class RankTrainer implements AutoCloseable {
    private final TrainSettings settings;
    private final int rank;
    private final Mlp model;
    private final BlobMixture data;
    private final Sgd sgd;
    private final DistributedDataParallel ddp;
    private final Timeline timeline;
    private final Map<String, Integer> offsets = new HashMap<>();
    private final float[] x;
    private final int[] labels;

    public RankTrainer(ModelSpec spec, TrainSettings settings, GradientCollectives coll, Timeline timeline) {
        this.settings = settings;
        this.rank = coll.rank();
        this.timeline = timeline;
        this.model = spec.model(Math.max(settings.batchPerRank(), Evaluation.CHUNK));
        this.data = spec.data();
        this.sgd = new Sgd(model.parameterCount(), spec.lr(), spec.momentum());
        var opts = DistributedDataParallel.builder(coll).bucketBytes(settings.bucketBytes()).communicationType(settings.precision())
                .accumulationSteps(settings.accumSteps()).overlap(settings.overlap()).sharding(settings.sharding()).timeline(timeline);
        // float16 tops out at 65504: start the scale at 2^10 rather than the usual 2^16, which this
        // model's early gradients (norm ~1) would overflow for several steps.
        if (settings.precision() == DataType.FLOAT16) opts.lossScaling(new LossScaler(1024f, 2f, 0.5f, 200));
        for (Mlp.ParamSlice s : model.slices()) {
            opts.param(s.name(), model.paramView(s), model.gradView(s));
            offsets.put(s.name(), s.offset());
        }
        this.ddp = opts.build();
        this.x = new float[settings.batchPerRank() * model.inputs()];
        this.labels = new int[settings.batchPerRank()];
    }

    public Mlp model() {
        return model;
    }

    public DistributedDataParallel ddp() {
        return ddp;
    }

    /** Runs global step {@code step}: accumSteps micro-steps, one synchronization, one optimizer update. */
    public StepRecord step(int step) {
        long t0 = Timeline.nowNs();
        int b = settings.batchPerRank();
        long fwd = 0;
        long bwd = 0;
        double lossSum = 0;
        StepResult result = null;
        for (int m = 0; m < settings.accumSteps(); m++) {
            data.fill(settings.firstSample(step, m, rank), b, x, labels);
            long f0 = Timeline.nowNs();
            lossSum += model.forward(x, labels, b, timeline);
            long f1 = Timeline.nowNs();
            model.backward(labels, b, ddp.lossScale(), ddp::gradReady, timeline);
            long f2 = Timeline.nowNs();
            result = ddp.finish();
            fwd += f1 - f0;
            // Waiting for buckets inside gradReady is communication, not backward compute.
            bwd += f2 - f1 - result.timing().backwardWaitNs();
        }
        long o0 = Timeline.nowNs();
        double norm = Double.NaN;
        if (result.shouldStep()) {
            if (settings.clipNorm() > 0) norm = ddp.clipGradNorm(settings.clipNorm());
            for (GradRange r : ddp.ownedRanges()) {
                int off = offsets.get(r.name());
                sgd.step(step, model.params(), model.grads(), off + (int) r.fromElem(), off + (int) r.toElem());
            }
            ddp.syncParameters();
        }
        ddp.zeroGrad();
        long o1 = Timeline.nowNs();
        timeline.complete("optimizer", result.skipped() ? "skipped" : "sgd", o0, o1);
        timeline.complete("step", "step " + step, t0, o1);
        return new StepRecord(step, (float) (lossSum / settings.accumSteps()), o1 - t0, fwd, bwd, o1 - o0,
                result.timing(), result.skipped(), norm, result.lossScale());
    }

    @Override
    public void close() {
        ddp.close();
    }
}
