package dev.jccl.cli.train;

import dev.jccl.ddp.CommTiming;

/**
 * One optimizer step as one rank saw it. Times are wall-clock nanoseconds on that rank; forward and
 * backward add up all micro-steps; backward leaves out time spent waiting for buckets inside it.
 *
 * @param loss      mean loss over this rank's samples of the step
 * @param gradNorm  global gradient norm before clipping (NaN when not clipping or skipped)
 */
public record StepRecord(int step, float loss, long stepNs, long forwardNs, long backwardNs, long optimizerNs,
                         CommTiming comm, boolean skipped, double gradNorm, float lossScale) {
    /** Time the step spent computing: forward, backward and the optimizer. */
    public long computeNs() {
        return forwardNs + backwardNs + optimizerNs;
    }
}
