package dev.jccl.reduce;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The offset form of the kernels (what the executor calls for every received chunk, so that it makes
 * no slices) computes exactly what the slice form computes, for every type and op, with each of
 * dst, a and b at its own unaligned offset, and touches nothing outside the destination range.
 */
@Tag("unit")
class OffsetKernelsTest {
    private static final long COUNT = 1_037; // not a multiple of any vector length
    private static final long CAPACITY = COUNT + 64;

    static Stream<Arguments> typesAndOps() {
        return Arrays.stream(DataType.values())
                .flatMap(t -> Arrays.stream(ReduceOp.values()).map(op -> Arguments.of(t, op)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("typesAndOps")
    void offsetsEqualSlices(DataType type, ReduceOp op) {
        Random random = new Random(31L * type.ordinal() + op.ordinal());
        for (ReduceKernels kernels : new ReduceKernels[] {ReduceKernels.scalar(), ReduceKernels.vector()}) {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment a = arena.allocate(type.bytes(CAPACITY));
                MemorySegment b = arena.allocate(type.bytes(CAPACITY));
                MemorySegment bySlices = arena.allocate(type.bytes(CAPACITY));
                MemorySegment byOffsets = arena.allocate(type.bytes(CAPACITY));
                KernelTestData.fill(type, a, CAPACITY, random);
                KernelTestData.fill(type, b, CAPACITY, random);
                KernelTestData.relate(type, a, b, CAPACITY, random);
                long aOff = type.bytes(3);
                long bOff = type.bytes(17);
                long dOff = type.bytes(5);
                long bytes = type.bytes(COUNT);
                kernels.reduce(type, op, bySlices.asSlice(dOff, bytes), a.asSlice(aOff, bytes), b.asSlice(bOff, bytes), COUNT);
                kernels.reduce(type, op, byOffsets, dOff, a, aOff, b, bOff, COUNT);
                assertEquals(-1, bySlices.mismatch(byOffsets), kernels + " " + type + " " + op);
            }
        }
    }

    @Test
    void aRangePastTheEndIsRefused() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(64);
            ReduceKernels k = ReduceKernels.scalar();
            assertThrows(IndexOutOfBoundsException.class, () -> k.reduce(DataType.FLOAT32, ReduceOp.SUM, s, 8, s, 0, s, 0, 15));
            assertThrows(IndexOutOfBoundsException.class, () -> k.reduce(DataType.FLOAT32, ReduceOp.SUM, s, 0, s, 8, s, 0, 15));
        }
    }
}
