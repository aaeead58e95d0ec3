package dev.jccl.cli.tool;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.Work;
import dev.jccl.cli.tool.detect.Collapses;
import dev.jccl.cli.tool.detect.Periodicity;
import dev.jccl.cli.tool.detect.Stats;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;

/**
 * Back-to-back allreduces for a while, busbw per interval: the loop of {@code jccl stress} and of
 * doctor's soak. Calls go in batches; after each batch one tiny MAX allreduce agrees on the time and
 * the next batch's length (about a twentieth of an interval), so every rank issues the same calls
 * and stops together. The first call of every {@code checkEvery}-th batch is checked against the
 * exact sum. The clock starts after a first checked call; the first tenth of the run, at most 3 s,
 * warms up and is not measured. Periodicity is looked for per interval and, failing that, in slices of
 * a tenth of an interval (a 200 ms stall barely dents a 1 s interval). Collapse and periodicity come from the shared detectors.
 */
public final class Soak {
    /** One interval: when it ended (seconds from the start), its busbw (GB/s) and how many calls it had. */
    public record Interval(double endS, double busbw, long calls) {}

    public record Result(List<Interval> intervals, long calls, long checks, long wrong, List<Integer> collapses,
                         Periodicity periodicity, double intervalS) {
        public double[] series() {
            return intervals.stream().mapToDouble(Interval::busbw).toArray();
        }
    }

    /** Sees each finished interval on every rank, e.g. to draw the progress bar. */
    public interface Progress {
        void interval(Interval i, int index, int collapsesSoFar);
    }

    static final long WARMUP_NS = 3_000_000_000L;
    /** Slices per interval that periodicity is also looked for in, so a stall of a fifth of an interval still counts. */
    static final int FINE_BINS = 10;
    /** Collapses a period in slices needs: a slice collapses when one batch is descheduled, so three evenly spaced ones are often chance. */
    static final int MIN_SLICE_COLLAPSES = 5;

    private Soak() {}

    public static Result run(Communicator comm, long bytes, long durationNs, long intervalNs, int checkEvery, double fraction,
                             Progress progress) {
        int n = comm.size();
        long count = bytes / 4;
        double busFactor = n > 1 ? 2.0 * (n - 1) / n : 1;
        List<Interval> intervals = new ArrayList<>();
        List<Double> series = new ArrayList<>();
        List<Double> fine = new ArrayList<>();
        List<Double> fineWidthsS = new ArrayList<>();
        long calls = 0;
        long checks = 0;
        long wrong = 0;
        try (Arena arena = Arena.ofShared()) {
            MemorySegment buf = arena.allocate(Math.max(4, count * 4), 64);
            MemorySegment ctl = arena.allocate(16, 8);
            // The clock starts once every rank has made its first call (connections up, first plan
            // compiled): on a loaded host that alone can take longer than a short soak.
            wrong += checked(comm, buf, count);
            checks++;
            comm.barrier().await();
            long start = System.nanoTime();
            long batch = 1;
            long intervalCalls = 0;
            // The first moments run cold (the JIT still compiling): they are not an interval of the series.
            long warmupNs = Math.min(WARMUP_NS, durationNs / 10);
            long intervalStart = warmupNs;
            long fineNs = intervalNs / FINE_BINS;
            long fineStart = warmupNs;
            long fineCalls = 0;
            for (long b = 1; ; b++) {
                if (b % checkEvery == 0) {
                    wrong += checked(comm, buf, count);
                    checks++;
                }
                long t0 = System.nanoTime();
                Work last = null;
                for (long i = 0; i < batch; i++) last = comm.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM);
                if (last != null) last.await();
                long batchNs = System.nanoTime() - t0;
                long lastBatch = batch;
                calls += batch;
                intervalCalls += batch;
                long wantBatch = Math.max(1, Math.min(1 << 16, intervalNs / 20 / Math.max(1, batchNs / batch)));
                ctl.set(ValueLayout.JAVA_LONG, 0, System.nanoTime() - start);
                ctl.set(ValueLayout.JAVA_LONG, 8, wantBatch);
                comm.allReduce(ctl, 2, DataType.INT64, ReduceOp.MAX).await();
                long elapsed = ctl.get(ValueLayout.JAVA_LONG, 0);
                batch = ctl.get(ValueLayout.JAVA_LONG, 8);
                if (elapsed >= warmupNs) {
                    fineCalls += lastBatch;
                    if (elapsed - fineStart >= fineNs) {
                        fine.add(fineCalls * (double) bytes / ((elapsed - fineStart) / 1e9) / 1e9 * busFactor);
                        fineWidthsS.add((elapsed - fineStart) / 1e9);
                        fineStart = elapsed;
                        fineCalls = 0;
                    }
                }
                if (elapsed < warmupNs) {
                    intervalCalls = 0;
                } else if (elapsed - intervalStart >= intervalNs || elapsed >= durationNs) {
                    double seconds = (elapsed - intervalStart) / 1e9;
                    double busbw = intervalCalls * (double) bytes / seconds / 1e9 * busFactor;
                    Interval iv = new Interval(elapsed / 1e9, busbw, intervalCalls);
                    intervals.add(iv);
                    series.add(busbw);
                    double[] s = series.stream().mapToDouble(Double::doubleValue).toArray();
                    progress.interval(iv, intervals.size() - 1, Collapses.find(s, fraction).size());
                    intervalStart = elapsed;
                    intervalCalls = 0;
                }
                if (elapsed >= durationNs) break;
            }
        }
        double[] s = series.stream().mapToDouble(Double::doubleValue).toArray();
        double intervalS = intervalNs / 1e9;
        double[] ends = intervals.stream().mapToDouble(Interval::endS).toArray();
        Periodicity p = Periodicity.find(s, ends, intervalS, fraction, 2);
        if (!p.periodic() && Collapses.find(s, fraction).size() < Periodicity.MIN_COLLAPSES) {
            // A stall much shorter than an interval hardly moves it; in slices of a tenth it is a collapse.
            // Only then: where whole intervals collapsed and showed no period, slices would find one in their bursts.
            double[] f = fine.stream().mapToDouble(Double::doubleValue).toArray();
            double sliceS = Stats.median(fineWidthsS.stream().mapToDouble(Double::doubleValue).toArray());
            Periodicity inSlices = Periodicity.find(f, null, Double.isNaN(sliceS) ? intervalS / FINE_BINS : sliceS, fraction,
                    2 * FINE_BINS, MIN_SLICE_COLLAPSES);
            if (inSlices.periodic()) {
                p = new Periodicity(true, inSlices.periodS(), inSlices.correlation(), inSlices.reason() + " (in slices of "
                        + String.format(java.util.Locale.ROOT, "%.2f", sliceS) + " s)");
            }
        }
        return new Result(intervals, calls, checks, wrong, Collapses.find(s, fraction), p, intervalS);
    }

    /** One allreduce of a known pattern (rank r contributes r + 1 + i % 7); returns the wrong elements of this rank. */
    private static long checked(Communicator comm, MemorySegment buf, long count) {
        int n = comm.size();
        int r = comm.rank();
        for (long i = 0; i < count; i++) buf.setAtIndex(ValueLayout.JAVA_FLOAT, i, r + 1 + i % 7);
        comm.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
        long bad = 0;
        double base = n * (n + 1) / 2.0;
        for (long i = 0; i < count; i++) if (buf.getAtIndex(ValueLayout.JAVA_FLOAT, i) != (float) (base + n * (i % 7))) bad++;
        return bad;
    }
}
