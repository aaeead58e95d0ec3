package dev.jccl.cli.perf.coll;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** #wrong counts exactly the elements that differ from the expected answer, so a corrupt result cannot pass. */
@Timeout(30)
@Tag("unit")
class CollCheckTest {
    @Test
    void theExactAllreduceAnswerHasNothingWrongAndEachCorruptedElementCounts() {
        int n = 4;
        long count = 1009;
        try (Arena arena = Arena.ofConfined()) {
            for (DataType t : DataType.values()) {
                MemorySegment out = arena.allocate(t.bytes(count), 8);
                for (long j = 0; j < count; j++) CollPattern.writeBits(t, out, j, CollPattern.reduced(t, ReduceOp.SUM, n, j));
                assertEquals(0, CollCheck.wrong(CollTest.ALLREDUCE, t, ReduceOp.SUM, 0, out, count, 1, n), t.toString());
                for (long j : new long[] {0, 500, count - 1}) {
                    CollPattern.writeBits(t, out, j, CollPattern.readBits(t, out, j) ^ 1);
                }
                assertEquals(3, CollCheck.wrong(CollTest.ALLREDUCE, t, ReduceOp.SUM, 0, out, count, 1, n), t.toString());
            }
        }
    }

    @Test
    void allGatherExpectsEveryRanksBlockInRankOrder() {
        int n = 3;
        long count = 7;
        DataType t = DataType.INT32;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(t.bytes(n * count), 8);
            for (int s = 0; s < n; s++) CollPattern.fill(t, out.asSlice(t.bytes(s * count)), count, s, 0);
            assertEquals(0, CollCheck.wrong(CollTest.ALL_GATHER, t, ReduceOp.SUM, 0, out, count, 0, n));
            // Blocks of ranks 1 and 2 swapped: every element of both is wrong, unless the patterns coincide.
            MemorySegment swapped = arena.allocate(t.bytes(n * count), 8);
            swapped.asSlice(0, t.bytes(count)).copyFrom(out.asSlice(0, t.bytes(count)));
            swapped.asSlice(t.bytes(count), t.bytes(count)).copyFrom(out.asSlice(t.bytes(2 * count), t.bytes(count)));
            swapped.asSlice(t.bytes(2 * count), t.bytes(count)).copyFrom(out.asSlice(t.bytes(count), t.bytes(count)));
            long differing = 0;
            for (long j = 0; j < count; j++) {
                if (CollPattern.value(t, 1, j) != CollPattern.value(t, 2, j)) differing += 2;
            }
            assertEquals(differing, CollCheck.wrong(CollTest.ALL_GATHER, t, ReduceOp.SUM, 0, swapped, count, 0, n));
            assertEquals(true, differing > 0, "the pattern tells ranks 1 and 2 apart");
        }
    }
}
