package dev.jccl.plan;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The closed form on the worked example of the README: a 7B model's fp32 gradients (28 GB) on 8 hosts x 8 ranks at 200 Gb/s. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("unit")
class PlannerTest {
    static final long GRADIENT = 7_000_000_000L * 4;
    static final PlanRequest EXAMPLE = PlanRequest.of(GRADIENT, 8, 8, LinkSpec.parse("nvlink"), LinkSpec.parse("ib-200"));

    @Test
    void theRingSendsTwiceTheGradientPerRankAndTakesAboutTwoSeconds() {
        AlgorithmPlan ring = Planner.plan(EXAMPLE).get("ring");
        int n = 64;
        assertEquals(2.0 * (n - 1) / n * GRADIENT, ring.sentBytesPerRank(), 1.0);
        // One rank per host carries the ring across the host boundary, so the NIC carries what that rank sends.
        assertEquals(ring.sentBytesPerRank(), ring.hostLinkBytes());
        double formula = 2.0 * (n - 1) / n * GRADIENT / 25e9;
        assertEquals(2.205, formula, 0.001);
        // The cost model adds per-chunk overhead and one latency: within 2% of the formula.
        assertEquals(formula, ring.timeNs() / 1e9, formula * 0.02);
        assertEquals(2.2, ring.timeNs() / 1e9, 0.05);
    }

    @Test
    void hierarchicalMovesAnEighthOfTheDataPerRankAcrossHosts() {
        PlanResult p = Planner.plan(EXAMPLE);
        AlgorithmPlan ring = p.get("ring");
        AlgorithmPlan hier = p.get("hierarchical");
        int h = 8;
        int l = 8;
        int n = h * l;
        // Each rank's cross-host ring carries its 1/L block: 2(h-1)/h x S/L, against the ring's 2(n-1)/n x S.
        assertEquals(2.0 * (h - 1) / h * GRADIENT / l, hier.crossHostBytesPerRank(), 1.0);
        double ratio = (double) hier.crossHostBytesPerRank() / ring.crossHostBytesPerRank();
        assertEquals(1.0 / l * ((h - 1.0) / h) / ((n - 1.0) / n), ratio, 1e-9);
        assertEquals(1.0 / 8, ratio, 0.015);
        // The host's NIC carries all L flows: 2(h-1)/h x S, barely less than the ring's.
        assertEquals(2.0 * (h - 1) / h * GRADIENT, hier.hostLinkBytes(), 1.0);
    }

    @Test
    void theTunerPicksHierarchicalForTheExampleAndSaysWhy() {
        PlanResult p = Planner.plan(EXAMPLE);
        assertEquals("hierarchical", p.choice());
        assertTrue(p.why().contains("hierarchical") && p.why().contains("ring"), p.why());
        assertTrue(p.chosen().timeNs() < p.get("ring").timeNs());
    }

    /** Stable choices, each with its reason; the same table as TunerTest's, on the planner's links. */
    @ParameterizedTest(name = "{0} bytes on {1}x{2} over {3}: {4}")
    @CsvSource({
            // A few bytes: latency-bound, log2(n) exchanges win.
            "8,           8, 8, ib-200, recursive_doubling",
            "4,           1, 8, nvlink, recursive_doubling",
            // Large on one host: the bandwidth-optimal ring (hierarchical would be the ring there).
            "1073741824,  1, 8, nvlink, ring",
            // Large on many hosts of many ranks: reduce inside the host first.
            "1073741824,  8, 8, ib-200, hierarchical",
            "28000000000, 8, 8, ib-200, hierarchical",
            "28000000000, 8, 8, tcp,    hierarchical",
            // One rank per host: the ring (hierarchical would be the ring).
            "1073741824, 16, 1, ib-200, ring",
    })
    void tunerChoicesAreStable(long bytes, int hosts, int perHost, String inter, String expected) {
        PlanRequest r = PlanRequest.of(bytes, hosts, perHost, LinkSpec.parse("nvlink"), LinkSpec.parse(inter));
        PlanResult p = Planner.plan(r);
        assertEquals(expected, p.choice(), p.why());
        assertEquals(p.choice(), Planner.plan(r).choice(), "same request, same answer");
    }

    @Test
    void hierarchicalOnOneHostIsNotApplicableAndSaysWhy() {
        AlgorithmPlan h = Planner.plan(PlanRequest.of(1 << 20, 1, 8, LinkSpec.parse("nvlink"), LinkSpec.parse("ib-200"))).get("hierarchical");
        assertFalse(h.applicable());
        assertTrue(h.notApplicable().contains("one host"), h.notApplicable());
    }

    @Test
    void predictAllReduceIsTheTableEntry() {
        assertEquals(Planner.plan(EXAMPLE).get("tree").timeNs(), Planner.predictAllReduceNs(EXAMPLE, "tree"));
        assertThrows(IllegalArgumentException.class, () -> Planner.predictAllReduceNs(EXAMPLE, "bogus"));
    }

    @Test
    void aRunsOwnChannelsAndChunkArePricedAsGivenAndNeverBeatTheTunersPick() {
        PlanRequest req = new PlanRequest(4L << 20, 2, 2, LinkSpec.parse("10GB/s,600us"), LinkSpec.parse("956.4Mb/s,600us"), 4);
        AlgorithmPlan own = Planner.plan(req).get("ring");
        assertEquals(own.timeNs(), Planner.predictAllReduceNs(req, "ring", own.channels(), own.chunkBytes()));
        for (int ch : new int[] {1, 2, 4}) {
            for (long chunk : new long[] {16 << 10, 256 << 10}) {
                assertTrue(Planner.predictAllReduceNs(req, "ring", ch, chunk) >= own.timeNs(), ch + " channels, chunk " + chunk);
            }
        }
    }

    @Test
    void aDelayOnTheNetworkIsChargedOnlyWhereAChunksChainCrossesHosts() {
        // 2 hosts x 2 ranks: every ring step has a pair that crosses hosts, but a chunk's chain of 2(n-1) = 6 steps alternates shm
        // and network, so 5 ms more per network message costs 3 x 5 ms, not 6 x 5 (the delay-proxy rows of bench/plan-vs-measured.sh).
        PlanRequest base = new PlanRequest(64 << 10, 2, 2, LinkSpec.parse("10GB/s,600us"), LinkSpec.parse("956.4Mb/s,600us"), 4);
        assertEquals(15_000_000, delayCost(base, "ring"), 1_000_000);
        // 4 hosts x 2 ranks: 7 of the chain's 14 links cross hosts.
        assertEquals(35_000_000, delayCost(new PlanRequest(64 << 10, 4, 2, base.intra(), base.inter(), 4), "ring"), 1_500_000);
        // 1 host per rank: every link crosses hosts, all 2(n-1) = 6 of them.
        assertEquals(30_000_000, delayCost(new PlanRequest(64 << 10, 4, 1, base.intra(), base.inter(), 4), "ring"), 1_000_000);
        // Hierarchical crosses hosts in 2(h-1) = 2 of its steps only.
        assertEquals(10_000_000, delayCost(base, "hierarchical"), 1_000_000);
    }

    /** What 5 ms more per network message adds to the closed form's allreduce, at 1 channel and 16 KiB chunks (few enough for the slots). */
    private static long delayCost(PlanRequest base, String algorithm) {
        PlanRequest delayed = base.withInter(LinkSpec.parse("956.4Mb/s,5.6ms"));
        return Planner.predictAllReduceNs(delayed, algorithm, 1, 16 << 10) - Planner.predictAllReduceNs(base, algorithm, 1, 16 << 10);
    }

    @Test
    void smallChunksOverALongLinkAreBoundByTheSlotCredits() {
        // 2 hosts x 1 rank, 5 ms each way: 8 slots of 4 KiB per 10 ms round trip is 3.3 MB/s, far under the link's 120 MB/s.
        PlanRequest req = new PlanRequest(256 << 10, 2, 1, LinkSpec.parse("10GB/s,600us"), LinkSpec.parse("956.4Mb/s,5ms"), 4);
        long small = Planner.predictAllReduceNs(req, "ring", 1, 4096);
        // Two steps of 32 chunks, 8 per round trip: about 4 round trips each.
        assertEquals(2 * 4 * 10e6, small, 8e6);
        assertEquals(Simulator.simulate(req, "ring", 1, 4096).simulatedNs(), small, 0.15 * small);
        // 64 KiB chunks: 2 per step, within one window.
        assertTrue(Planner.predictAllReduceNs(req, "ring", 1, 64 << 10) < 20e6);
        // Where the link is short the credits come back in time and change nothing: bound by the link.
        PlanRequest near = req.withInter(LinkSpec.parse("956.4Mb/s,10us"));
        assertEquals(256 << 10, Planner.predictAllReduceNs(near, "ring", 1, 4096) / 1e9 * 0.9564e9 / 8, (256 << 10) * 0.1);
    }

    @Test
    void badRequestsAreRefusedWithTheirValue() {
        LinkSpec l = LinkSpec.parse("shm");
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PlanRequest.of(0, 1, 1, l, l)).getMessage().contains("bytes"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PlanRequest.of(1, 0, 1, l, l)).getMessage().contains("hosts"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PlanRequest.of(1, 1 << 16, 1 << 16, l, l)).getMessage().contains("ranks"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> LinkSpec.parse("ib-900")).getMessage().contains("ib-200"));
        assertEquals(25.0, LinkSpec.parse("200Gb/s,5us").gbytesPerSec(), 1e-9);
        assertEquals(5_000, LinkSpec.parse("200Gb/s,5us").latencyNs());
        assertEquals(12.5, LinkSpec.parse("12.5GB/s@1ms").gbytesPerSec(), 1e-9);
    }

    @Test
    void overlapHidesAllButTheLastBucketWhenComputeIsLong() {
        // 10 buckets of 1 ms under 30 ms of compute (20 ms backward): only the last bucket shows.
        StepEstimate s = StepEstimate.of(30_000_000, 1, 10, 1_000_000, 1_000_000, true);
        assertEquals(10_000_000, s.syncNs());
        assertEquals(1_000_000, s.exposedNs());
        assertEquals(31_000_000, s.stepNs());
        StepEstimate none = StepEstimate.of(30_000_000, 4, 10, 1_000_000, 1_000_000, false);
        assertEquals(10_000_000, none.exposedNs());
        assertEquals(4 * 30_000_000 + 10_000_000, none.stepNs());
    }
}
