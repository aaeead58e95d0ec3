package dev.jccl.cli.perf.coll;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The figures perf prints come from completion stamps: a burst spoils a batch, not the median; p50 <= p99 always. */
@Tag("unit")
class CallStatsTest {
    /** Stamps of calls taking {@code ns[i]} each, from 0. */
    private static long[] stamps(long[] ns) {
        long[] s = new long[ns.length + 1];
        for (int i = 0; i < ns.length; i++) s[i + 1] = s[i] + ns[i];
        return s;
    }

    @Test
    void aDescheduledBatchSetsTheMeanAndTheP99ButNotTheMedian() {
        long[] ns = new long[10 * 100];
        java.util.Arrays.fill(ns, 10_000); // 10 us a call
        for (int i = 300; i < 311; i++) ns[i] = 4_000_000; // one batch holds a 44 ms burst
        CallStats s = CallStats.of(stamps(ns), ns.length, 100);
        assertEquals(10.0, s.medianUs(), 1e-9);
        assertEquals(10.0, s.p50Us(), 1e-9);
        assertEquals(4000.0, s.p99Us(), 1e-9, "11 of 1000 calls are slow: more than 1%, so the 99th percentile is one of them");
        assertTrue(s.meanUs() > 50, "the mean carries the burst: " + s.meanUs());
    }

    @Test
    void p50IsAtMostP99AndTheMedianLiesBetweenTheFastestAndSlowestBatch() {
        SplittableRandom rnd = new SplittableRandom(12);
        for (int trial = 0; trial < 200; trial++) {
            int perBatch = 1 + rnd.nextInt(50);
            int batches = 1 + rnd.nextInt(20);
            long[] ns = new long[perBatch * batches];
            for (int i = 0; i < ns.length; i++) ns[i] = 1 + (rnd.nextInt(10) == 0 ? rnd.nextLong(10_000_000) : rnd.nextLong(20_000));
            CallStats s = CallStats.of(stamps(ns), ns.length, perBatch);
            assertTrue(s.p50Us() <= s.p99Us(), s.toString());
            double min = Double.MAX_VALUE;
            double max = 0;
            for (int b = 0; b < batches; b++) {
                long sum = 0;
                for (int i = 0; i < perBatch; i++) sum += ns[b * perBatch + i];
                min = Math.min(min, sum / 1e3 / perBatch);
                max = Math.max(max, sum / 1e3 / perBatch);
            }
            assertTrue(s.medianUs() >= min - 1e-9 && s.medianUs() <= max + 1e-9, s.toString());
        }
    }

    @Test
    void percentileIsTheNearestRank() {
        long[] sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
        assertEquals(5, CallStats.percentile(sorted, 0.5));
        assertEquals(10, CallStats.percentile(sorted, 0.99));
        assertEquals(1, CallStats.percentile(new long[] {1}, 0.99));
    }

    @Test
    void stampsMustCoverWholeBatches() {
        assertThrows(IllegalArgumentException.class, () -> CallStats.of(new long[11], 10, 3));
        assertThrows(IllegalArgumentException.class, () -> CallStats.of(new long[5], 10, 5));
    }

    @Test
    void aBatchFillsItsTimeAndAllBatchesTimeAtLeastIters() {
        CollOptions o = new CollOptions(CollTest.ALLREDUCE, 8, 1 << 20, 2, 20, 5, false, ReduceOp.SUM, DataType.FLOAT32, 0, false, 0,
                true, 0, 5_000_000, 10, true);
        assertEquals(500, o.callsPerBatch(8, 10_000), "5 ms of 10 us calls");
        assertEquals(2, o.callsPerBatch(1 << 20, 50_000_000), "a 50 ms call still runs -n 20 calls over 10 batches");
        assertEquals(CollOptions.MAX_CALLS_PER_BATCH, o.callsPerBatch(8, 1), "capped: per-call stamps are held in memory");
        assertThrows(IllegalArgumentException.class, () -> new CollOptions(CollTest.ALLREDUCE, 8, 8, 2, 20, 5, false, ReduceOp.SUM,
                DataType.FLOAT32, 0, false, 0, true, 0, 5_000_000, 0, false));
    }
}
