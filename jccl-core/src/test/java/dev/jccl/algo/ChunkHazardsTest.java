package dev.jccl.algo;

import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static dev.jccl.algo.BufferId.INPUT;
import static dev.jccl.algo.BufferId.OUTPUT;
import static dev.jccl.algo.BufferId.SCRATCH;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The waits the executor gets for each kind of hazard, at chunk granularity. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("unit")
class ChunkHazardsTest {
    private static ChunkHazards of(long chunk, Placement p, Step... steps) {
        return ChunkHazards.of(new RankSchedule(Collective.ALL_REDUCE, Algorithm.RING, 0, 2, 16, 16, 16, List.of(steps)), chunk, p);
    }

    private static Step send(BufferId b, long off, long n) {
        return new Step(new Send(1, Span.of(b, off, n)), null, null);
    }

    private static Step recv(BufferId b, long off, long n) {
        return new Step(null, null, Recv.copy(1, Span.of(b, off, n)));
    }

    @Test
    void aSendWaitsForTheReceiveChunksItOverlaps() {
        ChunkHazards h = of(4, Placement.DISTINCT, recv(OUTPUT, 0, 8), send(OUTPUT, 4, 8));
        assertEquals(List.of(new ChunkHazards.Wait(0, 2)), h.waits(1, 0));  // OUTPUT[4,8) is recv chunk 1
        assertEquals(List.of(), h.waits(1, 1));                               // OUTPUT[8,12) was never received
    }

    @Test
    void aReceiveWaitsForEarlierSendsOfTheSameMemoryToComplete() {
        ChunkHazards h = of(4, Placement.DISTINCT, send(OUTPUT, 0, 8), recv(OUTPUT, 2, 12));
        assertEquals(List.of(new ChunkHazards.Wait(0, 2)), h.waits(1, 0));  // [2,6) overlaps send chunks 0 and 1
        assertEquals(List.of(new ChunkHazards.Wait(0, 2)), h.waits(1, 1));  // [6,10) overlaps send chunk 1
        assertEquals(List.of(), h.waits(1, 2));                               // [10,14) was never sent
    }

    @Test
    void receivesIntoTheSameMemoryStayInProgramOrder() {
        ChunkHazards h = of(3, Placement.DISTINCT, recv(OUTPUT, 0, 6), recv(OUTPUT, 0, 6));
        assertEquals(List.of(new ChunkHazards.Wait(0, 1)), h.waits(1, 0));
        assertEquals(List.of(new ChunkHazards.Wait(0, 2)), h.waits(1, 1));
    }

    @Test
    void readsDoNotWaitForReads() {
        ChunkHazards h = of(4, Placement.DISTINCT, send(INPUT, 0, 8), send(INPUT, 0, 8));
        assertEquals(List.of(), h.waits(1, 0));
    }

    @Test
    void inputAndOutputConflictOnlyWhenTheCallIsInPlace() {
        Step[] steps = {send(INPUT, 0, 8), recv(OUTPUT, 0, 8)};
        assertEquals(List.of(), of(8, Placement.DISTINCT, steps).waits(1, 0));
        assertEquals(List.of(new ChunkHazards.Wait(0, 1)), of(8, new Placement(true, 0, 0), steps).waits(1, 0));
        // allGather in place on rank 1 of 2 with count 8: INPUT is OUTPUT[8,16).
        assertEquals(List.of(), of(8, new Placement(true, 8, 0), steps).waits(1, 0));
    }

    @Test
    void aReduceReadsItsOperand() {
        Step reduce = new Step(null, null, Recv.reduce(1, Span.of(SCRATCH, 0, 4), Span.of(OUTPUT, 0, 4)));
        ChunkHazards h = of(4, Placement.DISTINCT, recv(OUTPUT, 0, 4), reduce);
        assertEquals(List.of(new ChunkHazards.Wait(0, 1)), h.waits(1, 0));
    }

    @Test
    void opsAreNumberedSendCopyReceiveWithinAStep() {
        Step all = new Step(new Send(1, Span.of(INPUT, 0, 2)), new LocalCopy(Span.of(INPUT, 0, 2), Span.of(OUTPUT, 0, 2)),
                Recv.copy(1, Span.of(OUTPUT, 2, 2)));
        List<ChunkHazards.Op> ops = of(1, Placement.DISTINCT, all).ops();
        assertEquals(List.of(ChunkHazards.OpKind.SEND, ChunkHazards.OpKind.COPY, ChunkHazards.OpKind.RECV),
                ops.stream().map(ChunkHazards.Op::kind).toList());
    }

    @Test
    void chunksAreCountedFromTheSpanStartAndTheLastMayBeShort() {
        assertEquals(3, ChunkHazards.chunkCount(9, 4));
        assertEquals(Span.of(OUTPUT, 18, 1), ChunkHazards.chunkOf(Span.of(OUTPUT, 10, 9), 2, 4));
        assertThrows(IllegalArgumentException.class, () -> of(0, Placement.DISTINCT, send(INPUT, 0, 1)));
        assertThrows(IndexOutOfBoundsException.class, () -> of(4, Placement.DISTINCT, send(INPUT, 0, 4)).waits(0, 1));
    }
}
