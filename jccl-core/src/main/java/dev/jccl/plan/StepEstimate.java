package dev.jccl.plan;

/**
 * Gradient sync inside one optimizer step of data-parallel training: the gradient goes in buckets
 * that become ready one after another during backward (taken as 2/3 of compute, forward 1/3), and
 * each bucket's allreduce starts when its bucket is ready and the previous one is done. With K
 * accumulation steps only the last micro-step syncs, so the step is K computes plus what sync adds.
 *
 * @param syncNs    all buckets' allreduces back to back
 * @param exposedNs what sync adds to the step after backward ends
 * @param stepNs    K x compute + exposed
 */
public record StepEstimate(long syncNs, long exposedNs, long stepNs, int buckets) {
    public long hiddenNs() {
        return syncNs - exposedNs;
    }

    /** Share of the step spent waiting for sync. */
    public double exposedShare() {
        return stepNs == 0 ? 0 : (double) exposedNs / stepNs;
    }

    /** What share of sync backward hides. */
    public double hiddenShare() {
        return syncNs == 0 ? 0 : (double) hiddenNs() / syncNs;
    }

    /**
     * @param bucketNs one full bucket's allreduce
     * @param tailNs   the last (partial) bucket's; equal to bucketNs when the gradient divides
     * @param overlap  false: sync starts after backward (no overlap)
     */
    public static StepEstimate of(long computeNs, int accumulation, int buckets, long bucketNs, long tailNs, boolean overlap) {
        if (buckets < 1 || accumulation < 1 || computeNs < 0) throw new IllegalArgumentException("buckets " + buckets + ", accumulation " + accumulation);
        double backward = computeNs * 2.0 / 3;
        double forward = computeNs - backward;
        double end = 0;
        long sync = 0;
        for (int i = 0; i < buckets; i++) {
            long t = i == buckets - 1 ? tailNs : bucketNs;
            double ready = overlap ? forward + backward * (i + 1) / buckets : computeNs;
            end = Math.max(end, ready) + t;
            sync += t;
        }
        long exposed = Math.round(Math.max(0, end - computeNs));
        return new StepEstimate(sync, exposed, (long) accumulation * computeNs + exposed, buckets);
    }
}
