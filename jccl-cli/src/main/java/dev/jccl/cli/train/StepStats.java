package dev.jccl.cli.train;

import java.util.List;

/**
 * Means over the timed steps (warm-up left out) of one rank's records: where a step's time went, and
 * what the allreduce achieved.
 *
 * @param busBwBytesPerSec algorithm bandwidth x 2(n-1)/n, as nccl-tests reports for allreduce
 */
public record StepStats(int timedSteps, double stepMs, double computeMs, double forwardMs, double backwardMs,
                        double optimizerMs, double commMs, double exposedMs, double hiddenMs, long bytesPerStep,
                        int bucketsPerStep, double algBwBytesPerSec, double busBwBytesPerSec, int skippedSteps) {
    public static StepStats of(List<StepRecord> records, int warmupSteps, int ranks) {
        List<StepRecord> timed = records.size() > warmupSteps ? records.subList(warmupSteps, records.size()) : records;
        int n = timed.size();
        double step = 0, fwd = 0, bwd = 0, opt = 0, comm = 0, exposed = 0, hidden = 0;
        long bytes = 0;
        int buckets = 0;
        int skipped = 0;
        for (StepRecord r : timed) {
            step += r.stepNs();
            fwd += r.forwardNs();
            bwd += r.backwardNs();
            opt += r.optimizerNs();
            comm += r.comm().commNs();
            exposed += r.comm().exposedNs();
            hidden += r.comm().hiddenNs();
            bytes += r.comm().bytes();
            buckets = Math.max(buckets, r.comm().buckets());
        }
        for (StepRecord r : records) if (r.skipped()) skipped++;
        double algBw = comm > 0 ? bytes / (comm / 1e9) : 0;
        double busBw = algBw * 2.0 * (ranks - 1) / ranks;
        return new StepStats(n, ms(step, n), ms(fwd + bwd + opt, n), ms(fwd, n), ms(bwd, n), ms(opt, n), ms(comm, n),
                ms(exposed, n), ms(hidden, n), n == 0 ? 0 : bytes / n, buckets, algBw, busBw, skipped);
    }

    private static double ms(double ns, int n) {
        return n == 0 ? 0 : ns / n / 1e6;
    }

    /** Share of communication time that ran while backward still computed, 0..1. */
    public double hiddenShare() {
        return commMs == 0 ? 0 : hiddenMs / commMs;
    }
}
