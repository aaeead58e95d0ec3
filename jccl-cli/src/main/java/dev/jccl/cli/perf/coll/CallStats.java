package dev.jccl.cli.perf.coll;

import java.util.Arrays;

/**
 * One rank's figures for one size, from the completion times of its timed calls: {@code stamps[0]}
 * is when the first batch started and {@code stamps[i]} when call i completed, batches of
 * {@code perBatch} calls back to back. The headline is the median over batches of the batch's mean
 * time per call: a burst of descheduling spoils a batch or two, not the figure, while a batch long
 * enough to hold many calls still averages out the jitter of single calls. The mean over all calls
 * and the p50/p99 of single calls are there to show the bursts, not to hide them.
 */
record CallStats(double medianUs, double meanUs, double p50Us, double p99Us) {
    static CallStats of(long[] stamps, int calls, int perBatch) {
        if (calls < 1 || perBatch < 1 || calls % perBatch != 0 || stamps.length < calls + 1) {
            throw new IllegalArgumentException("need " + calls + " calls in batches of " + perBatch + " and " + (calls + 1) + " stamps");
        }
        int batches = calls / perBatch;
        double[] batchMeans = new double[batches];
        for (int b = 0; b < batches; b++) {
            batchMeans[b] = (double) (stamps[(b + 1) * perBatch] - stamps[b * perBatch]) / perBatch;
        }
        long[] single = new long[calls];
        for (int i = 0; i < calls; i++) single[i] = stamps[i + 1] - stamps[i];
        Arrays.sort(batchMeans);
        Arrays.sort(single);
        double mean = (double) (stamps[calls] - stamps[0]) / calls;
        return new CallStats(median(batchMeans) / 1e3, mean / 1e3, percentile(single, 0.50) / 1e3, percentile(single, 0.99) / 1e3);
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    /** Nearest rank: the smallest value with at least {@code p} of the values at or below it. */
    static double percentile(long[] sorted, double p) {
        int rank = (int) Math.ceil(p * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}
