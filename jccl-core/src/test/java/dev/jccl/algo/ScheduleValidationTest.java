package dev.jccl.algo;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static dev.jccl.algo.BufferId.INPUT;
import static dev.jccl.algo.BufferId.OUTPUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Schedules refuse what an executor must never see, and builders refuse bad requests, naming values. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("unit")
class ScheduleValidationTest {
    private static String refused(Runnable r) {
        return assertThrows(IllegalArgumentException.class, r::run).getMessage();
    }

    private static void schedule(Step s) {
        new RankSchedule(Collective.ALL_REDUCE, Algorithm.RING, 0, 2, 8, 8, 0, List.of(s));
    }

    @Test
    void spansOutsideTheirBufferAreRefused() {
        String m = refused(() -> schedule(new Step(new Send(1, Span.of(INPUT, 4, 5)), null, null)));
        assertTrue(m.contains("INPUT[4+5] exceeds INPUT of 8 elements"), m);
        m = refused(() -> schedule(new Step(null, null, Recv.copy(1, Span.of(BufferId.SCRATCH, 0, 1)))));
        assertTrue(m.contains("exceeds SCRATCH of 0"), m);
    }

    @Test
    void peersMustBeOtherRanks() {
        String m = refused(() -> schedule(new Step(new Send(0, Span.of(INPUT, 0, 1)), null, null)));
        assertTrue(m.contains("peer 0 is not another rank of 2"), m);
        refused(() -> schedule(new Step(null, null, Recv.copy(2, Span.of(OUTPUT, 0, 1)))));
    }

    @Test
    void emptyOperationsAndMalformedPartsAreRefused() {
        refused(() -> schedule(new Step(new Send(1, Span.of(INPUT, 0, 0)), null, null)));
        refused(() -> new Step(null, null, null));
        refused(() -> Recv.reduce(1, Span.of(OUTPUT, 0, 2), Span.of(INPUT, 0, 3)));
        refused(() -> new Recv(1, Span.of(OUTPUT, 0, 2), Recv.Action.COPY, Span.of(INPUT, 0, 2)));
        refused(() -> new LocalCopy(Span.of(INPUT, 0, 2), Span.of(OUTPUT, 0, 3)));
        refused(() -> Span.of(INPUT, -1, 2));
    }

    @Test
    void buildersRefuseBadRequests() {
        HostTopology t = HostTopology.singleHost(4);
        String m = refused(() -> Schedules.build(Algorithm.RING, CollectiveArgs.rooted(Collective.BROADCAST, 8, 4), t, 0));
        assertTrue(m.contains("root 4 is not a rank of 4"), m);
        m = refused(() -> Schedules.build(Algorithm.RING, CollectiveArgs.of(Collective.ALL_REDUCE, 8), t, 4));
        assertTrue(m.contains("rank 4 is not a rank of 4"), m);
        m = refused(() -> Schedules.build(Algorithm.TREE, CollectiveArgs.of(Collective.ALL_TO_ALL, 8), t, 0));
        assertTrue(m.contains("tree does not implement allToAll"), m);
        m = refused(() -> Schedules.build(Algorithm.HIERARCHICAL, CollectiveArgs.of(Collective.ALL_REDUCE, 8), HostTopology.of(0, 0, 1), 0));
        assertTrue(m.contains("hierarchical needs equal ranks per host, but there are 2 hosts with 2,1 ranks"), m);
        refused(() -> CollectiveArgs.of(Collective.ALL_REDUCE, -1));
        refused(() -> new CollectiveArgs(Collective.ALL_REDUCE, 1, 2));
        m = refused(() -> Placement.inPlace(CollectiveArgs.of(Collective.ALL_TO_ALL, 1), 0));
        assertTrue(m.contains("allToAll cannot run in place"), m);
    }

    @Test
    void stepCountsFollowTheTextbook() {
        CollectiveArgs big = CollectiveArgs.of(Collective.ALL_REDUCE, 1000);
        assertEquals(2 * 7, Schedules.build(Algorithm.RING, big, HostTopology.singleHost(8), 3).steps().size());
        // Binomial tree, 8 ranks: the root receives 3 times and sends 3 times.
        assertEquals(6, Schedules.build(Algorithm.TREE, big, HostTopology.singleHost(8), 0).steps().size());
        // Barrier on 5 ranks: 3 rounds of dissemination.
        assertEquals(3, Schedules.build(Algorithm.DISSEMINATION, CollectiveArgs.of(Collective.BARRIER, 0), HostTopology.singleHost(5), 2).steps().size());
        // Hierarchical, 2 hosts x 4: 3 + 1 + 1 + 3 steps.
        assertEquals(8, Schedules.build(Algorithm.HIERARCHICAL, big, HostTopology.uniform(2, 4), 5).steps().size());
        // Only the first channel carries the barrier.
        assertEquals(0, Schedules.build(Algorithm.DISSEMINATION, CollectiveArgs.of(Collective.BARRIER, 0), HostTopology.singleHost(5),
                2, 1, 2, 1).steps().size());
    }

    @Test
    void describeListsEveryStep() {
        String d = Schedules.build(Algorithm.RING, CollectiveArgs.of(Collective.ALL_REDUCE, 6), HostTopology.singleHost(3), 1).describe();
        assertTrue(d.startsWith("allReduce ring rank 1/3"), d);
        assertTrue(d.contains("0: send INPUT[0+2] -> 2; recv OUTPUT[4+2] = INPUT[4+2] (+) <- 0"), d);
    }
}
