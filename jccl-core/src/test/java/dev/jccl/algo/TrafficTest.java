package dev.jccl.algo;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the simulated ranks send matches the textbook traffic of each algorithm. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("unit")
class TrafficTest {
    private static Harness.Outcome run(Algorithm a, HostTopology t, long count) {
        return Harness.run(Harness.Case.of(a, CollectiveArgs.of(Collective.ALL_REDUCE, count), t, 1, false), Arith.LONG_SUM, Harness.steps());
    }

    @ParameterizedTest(name = "n={0}")
    @ValueSource(ints = {2, 3, 4, 5, 7, 8, 9, 16})
    void ringAllReduceSendsTwoTimesNMinusOneOverNOfTheDataPerRank(int n) {
        long count = 240L * n;
        Harness.Outcome o = run(Algorithm.RING, HostTopology.singleHost(n), count);
        for (int r = 0; r < n; r++) assertEquals(2L * (n - 1) * count / n, o.sentElems()[r], "rank " + r);
    }

    @ParameterizedTest(name = "n={0}")
    @ValueSource(ints = {2, 3, 5, 7, 16})
    void unevenBlocksStillSendEveryBlockTwiceAroundTheRing(int n) {
        long count = 10L * n + 3;
        Harness.Outcome o = run(Algorithm.RING, HostTopology.singleHost(n), count);
        assertEquals(2L * (n - 1) * count, Arrays.stream(o.sentElems()).sum());
        long ceilBlock = (count + n - 1) / n;
        for (long sent : o.sentElems()) assertTrue(sent <= 2L * (n - 1) * ceilBlock, "sent " + sent);
    }

    @ParameterizedTest(name = "n={0}")
    @ValueSource(ints = {2, 4, 8, 16})
    void halvingDoublingSendsTheSameAsTheRingInLogSteps(int n) {
        long count = 64L * n;
        Harness.Outcome o = run(Algorithm.HALVING_DOUBLING, HostTopology.singleHost(n), count);
        for (int r = 0; r < n; r++) assertEquals(2L * (n - 1) * count / n, o.sentElems()[r], "rank " + r);
        int log = Integer.numberOfTrailingZeros(n);
        assertEquals(2 * log, Schedules.build(Algorithm.HALVING_DOUBLING, CollectiveArgs.of(Collective.ALL_REDUCE, count),
                HostTopology.singleHost(n), 0).steps().size());
    }

    /** Every rank of the power-of-two core sends its whole vector once per step, log2(n) steps; 2 ranks need one. */
    @ParameterizedTest(name = "n={0}")
    @ValueSource(ints = {1, 2, 4, 8, 16})
    void recursiveDoublingSendsTheWholeVectorInLogSteps(int n) {
        long count = 100;
        Harness.Outcome o = run(Algorithm.RECURSIVE_DOUBLING, HostTopology.singleHost(n), count);
        int log = Integer.numberOfTrailingZeros(n);
        for (int r = 0; r < n; r++) assertEquals(log * count, o.sentElems()[r], "rank " + r);
        assertEquals(n == 1 ? 1 : log, Schedules.build(Algorithm.RECURSIVE_DOUBLING, CollectiveArgs.of(Collective.ALL_REDUCE, count),
                HostTopology.singleHost(n), 0).steps().size());
    }

    /** With n = p + rem, the first 2·rem ranks fold in pairs: the even one sends only its input, the odd one also sends the result back. */
    @ParameterizedTest(name = "n={0}")
    @ValueSource(ints = {3, 5, 6, 7})
    void recursiveDoublingFoldsTheRanksBeyondAPowerOfTwo(int n) {
        long count = 100;
        int p = Integer.highestOneBit(n);
        int rem = n - p;
        int log = Integer.numberOfTrailingZeros(p);
        Harness.Outcome o = run(Algorithm.RECURSIVE_DOUBLING, HostTopology.singleHost(n), count);
        for (int v = 0; v < n; v++) {
            long want = v < 2 * rem ? (v % 2 == 0 ? count : (log + 1) * count) : log * count;
            assertEquals(want, o.sentElems()[v], "rank " + v);
        }
    }

    /**
     * Hierarchical: each rank sends 2(h-1)/h · count/L across hosts, 1/L of what each host sends
     * in a ring over the hosts, and at most 1/L of what a rank of the flat ring sends (2(n-1)/n ·
     * count, all of it across hosts when its ring neighbour is on another host).
     */
    @ParameterizedTest(name = "{0} hosts x {1}")
    @CsvSource({"2,2", "2,4", "4,2", "3,3", "4,4", "2,8"})
    void hierarchicalCrossHostTrafficIsOneOverRanksPerHost(int hosts, int perHost) {
        HostTopology t = HostTopology.uniform(hosts, perHost);
        int n = hosts * perHost;
        long count = 144L * n;
        Harness.Outcome hier = run(Algorithm.HIERARCHICAL, t, count);
        Harness.Outcome flat = run(Algorithm.RING, t, count);
        long hostRingPerHost = 2L * (hosts - 1) * count / hosts;
        long flatPerRank = 2L * (n - 1) * count / n;
        for (int r = 0; r < n; r++) {
            assertEquals(hostRingPerHost / perHost, hier.crossHostElems()[r], "rank " + r);
            assertTrue(hier.crossHostElems()[r] * perHost <= flatPerRank);
        }
        assertEquals(flatPerRank, Arrays.stream(flat.crossHostElems()).max().orElseThrow());
    }

    @Test
    void theFlatRingCrossesEachHostBoundaryOnceWhateverTheRankNumbering() {
        // Ranks alternate between two hosts; the host-grouped order still crosses only twice.
        HostTopology t = Matrix.interleaved(8, 2);
        Harness.Outcome o = run(Algorithm.RING, t, 800);
        assertEquals(2, Arrays.stream(o.crossHostElems()).filter(x -> x > 0).count());
    }
}
