package dev.jccl.algo;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static dev.jccl.algo.BufferId.INPUT;
import static dev.jccl.algo.BufferId.OUTPUT;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The simulators and references catch what they exist to catch: each check here must fail. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("unit")
class MismatchDetectionTest {
    private static final CollectiveArgs ARGS = CollectiveArgs.of(Collective.ALL_REDUCE, 4);

    private static RankSchedule rank(int r, int n, Step... steps) {
        return new RankSchedule(Collective.ALL_REDUCE, Algorithm.RING, r, n, 4, 4, 0, List.of(steps));
    }

    private static Step send(int peer, long count) {
        return new Step(new Send(peer, Span.of(INPUT, 0, count)), null, null);
    }

    private static Step recv(int peer, long count) {
        return new Step(null, null, Recv.copy(peer, Span.of(OUTPUT, 0, count)));
    }

    private static List<SimMemory> memories(int n) {
        List<SimMemory> out = new ArrayList<>();
        for (int r = 0; r < n; r++) out.add(new SimMemory(Placement.DISTINCT, new long[] {1, 2, 3, 4}, 4));
        return out;
    }

    private static AssertionError stepRun(RankSchedule... ranks) {
        return assertThrows(AssertionError.class, () -> new StepSimulator(List.of(ranks), memories(ranks.length),
                Arith.LONG_SUM, HostTopology.singleHost(ranks.length)).run());
    }

    @Test
    void aReceiveOfAnotherCountThanTheSendFails() {
        AssertionError e = stepRun(rank(0, 2, send(1, 3)), rank(1, 2, recv(0, 4)));
        assertTrue(e.getMessage().contains("expects 4 elements from rank 0 but its step 0 sent 3"), e.getMessage());
    }

    @Test
    void aReceiveFromTheWrongPeerIsADeadlock() {
        AssertionError e = stepRun(rank(0, 3, send(1, 4)), rank(1, 3, recv(2, 4)), rank(2, 3));
        assertTrue(e.getMessage().contains("deadlock") && e.getMessage().contains("rank 1 blocked at step 0"), e.getMessage());
    }

    @Test
    void aSendNobodyReceivesFails() {
        AssertionError e = stepRun(rank(0, 2, send(1, 4), send(1, 4)), rank(1, 2, recv(0, 4)));
        assertTrue(e.getMessage().contains("no receive took"), e.getMessage());
    }

    @Test
    void theChunkSimulatorCatchesMismatchesToo() {
        AssertionError count = assertThrows(AssertionError.class, () -> new ChunkSimulator(
                List.of(rank(0, 2, send(1, 3)), rank(1, 2, recv(0, 4))), memories(2), Arith.LONG_SUM, 2, 1, 1).run());
        assertTrue(count.getMessage().contains("expects 2 elements from rank 0 but its step 0 sent 1"), count.getMessage());
        AssertionError stuck = assertThrows(AssertionError.class, () -> new ChunkSimulator(
                List.of(rank(0, 3, send(1, 4)), rank(1, 3, recv(2, 4)), rank(2, 3)), memories(3), Arith.LONG_SUM, 2, 1, 1).run());
        assertTrue(stuck.getMessage().contains("deadlock"), stuck.getMessage());
    }

    @Test
    void aScheduleThatCopiesWhereItShouldReduceGivesAWrongResult() {
        Harness.Case c = Harness.Case.of(Algorithm.RING, CollectiveArgs.of(Collective.ALL_REDUCE, 12), HostTopology.singleHost(4), 1, false);
        AssertionError e = assertThrows(AssertionError.class, () -> Harness.run(c, Arith.LONG_SUM, Harness.steps(), all -> {
            List<RankSchedule> out = new ArrayList<>(all);
            RankSchedule r1 = all.get(1);
            List<Step> steps = new ArrayList<>(r1.steps());
            Step s = steps.get(0);
            steps.set(0, new Step(s.send(), s.copy(), Recv.copy(s.recv().peer(), s.recv().into())));
            out.set(1, new RankSchedule(r1.collective(), r1.algorithm(), 1, 4, r1.inputElems(), r1.outputElems(), r1.scratchElems(), steps));
            return out;
        }));
        assertTrue(e.getMessage().contains("OUTPUT of rank"), e.getMessage());
    }

    @Test
    void anExecutorThatIgnoresTheHazardWaitsIsCaught() {
        Harness.Case c = Harness.Case.of(Algorithm.RING, CollectiveArgs.of(Collective.REDUCE_SCATTER, 9), HostTopology.singleHost(5), 1, false);
        int caught = 0;
        for (long seed = 0; seed < 20; seed++) {
            try {
                Harness.run(c, Arith.LONG_SUM, Harness.chunksIgnoringWaits(2, 3, seed));
            } catch (AssertionError expected) {
                caught++;
            }
        }
        assertTrue(caught > 0, "ignoring the waits went unnoticed in 20 random orders");
    }

    @Test
    void doubleSumsTellReductionOrdersApart() {
        // The exact float comparison is only a check if another order gives other bits.
        int n = 6;
        HostTopology t = HostTopology.singleHost(n);
        SplittableRandom random = new SplittableRandom(7);
        int differ = 0;
        for (int e = 0; e < 1000; e++) {
            long[] x = new long[n];
            for (int r = 0; r < n; r++) x[r] = Arith.DOUBLE_SUM.sample(random);
            long ring = ReductionOrder.ring(t.order(), 0).eval(Arith.DOUBLE_SUM, r -> x[r]);
            long tree = ReductionOrder.binomial(t.order(), 0).eval(Arith.DOUBLE_SUM, r -> x[r]);
            if (ring != tree) differ++;
        }
        assertTrue(differ > 250, "only " + differ + " of 1000 sums differ between ring and tree order");
    }
}
