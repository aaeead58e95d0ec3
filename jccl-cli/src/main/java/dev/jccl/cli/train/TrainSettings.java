package dev.jccl.cli.train;

import dev.jccl.DataType;
import dev.jccl.ddp.Sharding;

/**
 * How one training run is shaped. The global batch of a step is {@code ranks x batchPerRank x
 * accumSteps} samples; the single-process reference trains on exactly those samples in one batch.
 *
 * @param clipNorm    clip the gradient to this global L2 norm; 0 = no clipping
 * @param precision   type gradients travel in (FLOAT32, BFLOAT16, FLOAT16); FLOAT16 turns on dynamic loss scaling
 * @param overlap     false sends every bucket only after backward (the baseline)
 * @param warmupSteps steps left out of the timing means (the JIT is still compiling)
 */
public record TrainSettings(int ranks, int steps, int batchPerRank, int accumSteps, double clipNorm, DataType precision,
                            boolean overlap, long bucketBytes, Sharding sharding, int warmupSteps) {
    public TrainSettings {
        if (ranks < 1) throw new IllegalArgumentException("--ranks must be >= 1, got " + ranks);
        if (steps < 1) throw new IllegalArgumentException("--steps must be >= 1, got " + steps);
        if (batchPerRank < 1) throw new IllegalArgumentException("--batch must be >= 1, got " + batchPerRank);
        if (accumSteps < 1) throw new IllegalArgumentException("--accum-steps must be >= 1, got " + accumSteps);
        if (clipNorm < 0 || Double.isNaN(clipNorm)) throw new IllegalArgumentException("--clip must be >= 0, got " + clipNorm);
        if (precision != DataType.FLOAT32 && precision != DataType.BFLOAT16 && precision != DataType.FLOAT16) {
            throw new IllegalArgumentException("--precision must be fp32, bf16 or fp16, got " + precision.ncclName());
        }
        if (bucketBytes <= 0) throw new IllegalArgumentException("--bucket-size must be positive, got " + bucketBytes);
        if (warmupSteps < 0) throw new IllegalArgumentException("warm-up steps must be >= 0, got " + warmupSteps);
    }

    public int globalBatch() {
        return ranks * batchPerRank * accumSteps;
    }

    /** Global index of the first sample rank {@code rank} uses in micro-step {@code micro} of {@code step}. */
    public long firstSample(int step, int micro, int rank) {
        return ((long) step * accumSteps + micro) * ranks * batchPerRank + (long) rank * batchPerRank;
    }
}
