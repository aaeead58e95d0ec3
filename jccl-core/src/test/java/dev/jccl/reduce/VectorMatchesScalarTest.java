package dev.jccl.reduce;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.Random;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The vector kernels against the scalar reference, bit for bit, for every (type, op): counts around
 * the vector lengths and one large prime count (long enough for the JIT to compile the vector loops),
 * slices starting at elements that are not vector-aligned, out of place and in place, and the AVG
 * finish. Destinations start with different garbage, so a kernel that skips an element fails, and
 * the bytes around each destination slice are checked to be untouched.
 */
@Timeout(300)
@Tag("slow")
class VectorMatchesScalarTest {
    /** First, so that the JIT has compiled the vector loops before the short counts run. */
    private static final long LARGE = 1_000_003;
    private static final long[] COUNTS = {LARGE, 0, 1, 7, 8, 9, 15, 16, 17, 1023};
    private static final long[] OFFSETS = {0, 1, 3};
    private static final long CAPACITY = LARGE + 3 + 1;
    private static final ReduceKernels SCALAR = ReduceKernels.scalar();
    private static final ReduceKernels VECTOR = ReduceKernels.vector();

    static Stream<Arguments> typesAndOps() {
        return Arrays.stream(DataType.values())
                .flatMap(t -> Arrays.stream(ReduceOp.values()).map(op -> Arguments.of(t, op)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("typesAndOps")
    void vectorEqualsScalar(DataType type, ReduceOp op) {
        long seed = 1000L * type.ordinal() + op.ordinal();
        Random random = new Random(seed);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment a = arena.allocate(type.bytes(CAPACITY));
            MemorySegment b = arena.allocate(type.bytes(CAPACITY));
            MemorySegment expected = arena.allocate(type.bytes(CAPACITY));
            MemorySegment actual = arena.allocate(type.bytes(CAPACITY));
            KernelTestData.fill(type, a, CAPACITY, random);
            KernelTestData.fill(type, b, CAPACITY, random);
            KernelTestData.relate(type, a, b, CAPACITY, random);
            for (long count : COUNTS) {
                for (long offset : OFFSETS) {
                    if (count == LARGE && offset != 1) continue; // one unaligned pass keeps the suite quick
                    String where = type + " " + op + " count=" + count + " offset=" + offset + " seed=" + seed;
                    MemorySegment as = slice(type, a, offset, count);
                    MemorySegment bs = slice(type, b, offset, count);
                    MemorySegment es = slice(type, expected.fill((byte) 0x00), offset, count);
                    MemorySegment vs = slice(type, actual.fill((byte) 0x5A), offset, count);

                    SCALAR.reduce(type, op, es, as, bs, count);
                    VECTOR.reduce(type, op, vs, as, bs, count);
                    assertSameBits(type, es, vs, as, bs, count, "out of place " + where);
                    assertGuardsUntouched(type, actual, offset, count, (byte) 0x5A, where);

                    MemorySegment.copy(as, 0, vs, 0, type.bytes(count));
                    VECTOR.reduce(type, op, vs, bs, count);
                    assertSameBits(type, es, vs, as, bs, count, "in place " + where);

                    if (op == ReduceOp.AVG) checkFinishAvg(type, es, vs, count, where);
                }
            }
        }
    }

    /** Both kernels divide the same sums; {@code vs} holds a copy of {@code es} on entry. */
    private static void checkFinishAvg(DataType type, MemorySegment es, MemorySegment vs, long count, String where) {
        for (int n : new int[] {3, 8}) {
            MemorySegment.copy(es, 0, vs, 0, type.bytes(count));
            SCALAR.finishAvg(type, es, count, n);
            VECTOR.finishAvg(type, vs, count, n);
            assertSameBits(type, es, vs, es, es, count, "finishAvg n=" + n + " " + where);
        }
    }

    private static MemorySegment slice(DataType type, MemorySegment whole, long offset, long count) {
        return whole.asSlice(type.bytes(offset), type.bytes(count));
    }

    private static void assertSameBits(DataType type, MemorySegment expected, MemorySegment actual,
                                       MemorySegment a, MemorySegment b, long count, String where) {
        long byteOffset = expected.mismatch(actual);
        if (byteOffset < 0) return;
        long i = byteOffset / type.byteSize();
        fail(where + ": element " + i + " of " + count + ": a=" + KernelTestData.hex(type, a, i)
                + " b=" + KernelTestData.hex(type, b, i) + " scalar=" + KernelTestData.hex(type, expected, i)
                + " vector=" + KernelTestData.hex(type, actual, i));
    }

    private static void assertGuardsUntouched(DataType type, MemorySegment whole, long offset, long count,
                                              byte fill, String where) {
        long start = type.bytes(offset);
        long end = start + type.bytes(count);
        for (long k = 0; k < start; k++) assertEquals(fill, whole.get(ValueLayout.JAVA_BYTE, k), "byte before slice " + where);
        for (long k = end; k < Math.min(end + 64, whole.byteSize()); k++) {
            assertEquals(fill, whole.get(ValueLayout.JAVA_BYTE, k), "byte " + k + " after slice " + where);
        }
    }
}
