package dev.jccl.reduce;

import dev.jccl.BFloat16;
import dev.jccl.DataType;
import dev.jccl.Half;
import dev.jccl.ReduceOp;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Known answers for the rules in the package doc, run against both kernels. Each case is repeated
 * over 67 elements, so the vector kernel computes it in whole vectors and in its scalar tail.
 */
@Timeout(30)
@Tag("unit")
class ReduceSemanticsTest {
    private static final int REPEAT = 67;

    private static ReduceKernels kernels(ReduceKernels.Kind kind) {
        return kind == ReduceKernels.Kind.VECTOR ? ReduceKernels.vector() : ReduceKernels.scalar();
    }

    @ParameterizedTest
    @EnumSource(ReduceKernels.Kind.class)
    void integersWrapLikeC(ReduceKernels.Kind kind) {
        ReduceKernels k = kernels(kind);
        assertEquals(Integer.MIN_VALUE, i32(k, ReduceOp.SUM, Integer.MAX_VALUE, 1));
        assertEquals(0, i32(k, ReduceOp.PROD, 1 << 16, 1 << 16));
        assertEquals(Long.MIN_VALUE, i64(k, ReduceOp.SUM, Long.MAX_VALUE, 1));
        assertEquals(Long.MAX_VALUE * 3, i64(k, ReduceOp.PROD, Long.MAX_VALUE, 3));
        assertEquals((byte) -128, i8(k, DataType.INT8, ReduceOp.SUM, 127, 1));
        assertEquals((byte) 44, i8(k, DataType.UINT8, ReduceOp.SUM, 200, 100), "300 mod 256");
        assertEquals((byte) 0x90, i8(k, DataType.UINT8, ReduceOp.PROD, 200, 2), "400 mod 256");
        assertEquals((byte) 0x90, i8(k, DataType.INT8, ReduceOp.PROD, -56, 2), "same bits signed");
    }

    @ParameterizedTest
    @EnumSource(ReduceKernels.Kind.class)
    void minMaxCompareSignedOrUnsignedByType(ReduceKernels.Kind kind) {
        ReduceKernels k = kernels(kind);
        assertEquals((byte) 1, i8(k, DataType.UINT8, ReduceOp.MIN, 200, 1), "200 is above 1 unsigned");
        assertEquals((byte) 200, i8(k, DataType.UINT8, ReduceOp.MAX, 200, 1));
        assertEquals((byte) -56, i8(k, DataType.INT8, ReduceOp.MIN, -56, 1), "the same byte is -56 signed");
        assertEquals((byte) 1, i8(k, DataType.INT8, ReduceOp.MAX, -56, 1));
        assertEquals(Integer.MIN_VALUE, i32(k, ReduceOp.MIN, Integer.MIN_VALUE, 0));
        assertEquals(Long.MAX_VALUE, i64(k, ReduceOp.MAX, -1, Long.MAX_VALUE));
    }

    @ParameterizedTest
    @EnumSource(ReduceKernels.Kind.class)
    void floatMinMaxFollowMathMinAndNaNIsCanonical(ReduceKernels.Kind kind) {
        ReduceKernels k = kernels(kind);
        int canonicalNaN = Float.floatToRawIntBits(Float.NaN);
        float negativeNaN = Float.intBitsToFloat(0xFFC00123);
        assertEquals(Float.floatToRawIntBits(-0f), bits(f32(k, ReduceOp.MIN, 0f, -0f)));
        assertEquals(Float.floatToRawIntBits(0f), bits(f32(k, ReduceOp.MAX, -0f, 0f)));
        assertEquals(canonicalNaN, bits(f32(k, ReduceOp.MIN, 1f, negativeNaN)), "NaN propagates through MIN");
        assertEquals(canonicalNaN, bits(f32(k, ReduceOp.MAX, negativeNaN, 1f)));
        assertEquals(canonicalNaN, bits(f32(k, ReduceOp.SUM, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY)));
        assertEquals(canonicalNaN, bits(f32(k, ReduceOp.PROD, Float.intBitsToFloat(0x7F800001), 2f)));
        assertEquals(Float.floatToRawIntBits(-0f), bits(f32(k, ReduceOp.SUM, -0f, -0f)));
        assertEquals(Float.floatToRawIntBits(0f), bits(f32(k, ReduceOp.SUM, -1f, 1f)));
        assertEquals(Float.POSITIVE_INFINITY, f32(k, ReduceOp.SUM, Float.MAX_VALUE, Float.MAX_VALUE));
        assertEquals(Float.MIN_VALUE * 2, f32(k, ReduceOp.SUM, Float.MIN_VALUE, Float.MIN_VALUE), "subnormals are not flushed");
        assertEquals(Double.doubleToRawLongBits(Double.NaN), Double.doubleToRawLongBits(f64(k, ReduceOp.MAX, Double.longBitsToDouble(0xFFF8000000000001L), 0)));
        assertEquals(Double.doubleToRawLongBits(-0d), Double.doubleToRawLongBits(f64(k, ReduceOp.MIN, 0d, -0d)));
    }

    @ParameterizedTest
    @EnumSource(ReduceKernels.Kind.class)
    void halfTypesRoundOncePerStep(ReduceKernels.Kind kind) {
        ReduceKernels k = kernels(kind);
        // 2048 + 1 lies midway between halves 2048 and 2050: ties to even 2048.
        assertEquals(Half.fromFloat(2048f), half(k, DataType.FLOAT16, ReduceOp.SUM, Half.fromFloat(2048f), Half.fromFloat(1f)));
        assertEquals(Half.fromFloat(2052f), half(k, DataType.FLOAT16, ReduceOp.SUM, Half.fromFloat(2050f), Half.fromFloat(1f)));
        assertEquals(Half.POSITIVE_INFINITY, half(k, DataType.FLOAT16, ReduceOp.SUM, Half.MAX_VALUE, Half.fromFloat(16f)));
        assertEquals(Half.NaN, half(k, DataType.FLOAT16, ReduceOp.MIN, (short) 0xFE01, Half.fromFloat(1f)));
        assertEquals(BFloat16.fromFloat(256f), half(k, DataType.BFLOAT16, ReduceOp.SUM, BFloat16.fromFloat(256f), BFloat16.fromFloat(1f)));
        assertEquals(BFloat16.NaN, half(k, DataType.BFLOAT16, ReduceOp.SUM, BFloat16.POSITIVE_INFINITY, BFloat16.NEGATIVE_INFINITY));
        // Rounding at every step: 1 + 2^-8 + 2^-8 in bfloat16 stays 1 (each step ties to even), while
        // a float32 accumulator would reach 1 + 2^-7.
        short one = BFloat16.fromFloat(1f);
        short tiny = BFloat16.fromFloat(0x1p-8f);
        short step = half(k, DataType.BFLOAT16, ReduceOp.SUM, one, tiny);
        assertEquals(one, half(k, DataType.BFLOAT16, ReduceOp.SUM, step, tiny));
    }

    @ParameterizedTest
    @EnumSource(ReduceKernels.Kind.class)
    void averageDividesTheSumOnce(ReduceKernels.Kind kind) {
        ReduceKernels k = kernels(kind);
        // Division, not multiplication by 1/n: 5 * (1/3f) rounds to 1.6666667f, 5 / 3f to 1.6666666f.
        assertEquals(5f / 3f, avgF32(k, 5f, 3));
        assertEquals(Float.floatToRawIntBits(1.6666666f), bits(avgF32(k, 5f, 3)));
        assertEquals(Double.doubleToRawLongBits(5d / 3d), avgBits(k, DataType.FLOAT64, Double.doubleToRawLongBits(5d), 3));
        assertEquals(-3, avgInt(k, DataType.INT32, -7, 2), "integers truncate toward zero");
        assertEquals(3, avgInt(k, DataType.INT64, 7, 2));
        assertEquals((byte) 125, (byte) avgInt(k, DataType.UINT8, 250, 2), "UINT8 divides unsigned");
        assertEquals((byte) -3, (byte) avgInt(k, DataType.INT8, -6, 2));
        assertEquals(Half.fromFloat(1f / 3), half(k, DataType.FLOAT16, 1f, 3));
        assertEquals(BFloat16.fromFloat(2.5f), half(k, DataType.BFLOAT16, 5f, 2));
    }

    // ---- helpers: run one case over REPEAT elements and check every element agrees ----

    private static MemorySegment run(ReduceKernels k, DataType type, ReduceOp op, long aBits, long bBits, Arena arena) {
        MemorySegment a = arena.allocate(type.bytes(REPEAT));
        MemorySegment b = arena.allocate(type.bytes(REPEAT));
        for (int i = 0; i < REPEAT; i++) {
            put(type, a, i, aBits);
            put(type, b, i, bBits);
        }
        k.reduce(type, op, a, b, REPEAT);
        return a;
    }

    private static long single(DataType type, MemorySegment seg) {
        long first = get(type, seg, 0);
        for (int i = 1; i < REPEAT; i++) assertEquals(first, get(type, seg, i), "element " + i);
        return first;
    }

    private static void put(DataType type, MemorySegment seg, long i, long v) {
        switch (type.byteSize()) {
            case 1 -> seg.set(ValueLayout.JAVA_BYTE, i, (byte) v);
            case 2 -> seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, i * 2, (short) v);
            case 4 -> seg.set(ValueLayout.JAVA_INT_UNALIGNED, i * 4, (int) v);
            default -> seg.set(ValueLayout.JAVA_LONG_UNALIGNED, i * 8, v);
        }
    }

    private static long get(DataType type, MemorySegment seg, long i) {
        return switch (type.byteSize()) {
            case 1 -> seg.get(ValueLayout.JAVA_BYTE, i);
            case 2 -> seg.get(ValueLayout.JAVA_SHORT_UNALIGNED, i * 2);
            case 4 -> seg.get(ValueLayout.JAVA_INT_UNALIGNED, i * 4);
            default -> seg.get(ValueLayout.JAVA_LONG_UNALIGNED, i * 8);
        };
    }

    private static long reduceBits(ReduceKernels k, DataType type, ReduceOp op, long a, long b) {
        try (Arena arena = Arena.ofConfined()) {
            return single(type, run(k, type, op, a, b, arena));
        }
    }

    private static int i32(ReduceKernels k, ReduceOp op, int a, int b) {
        return (int) reduceBits(k, DataType.INT32, op, a, b);
    }

    private static long i64(ReduceKernels k, ReduceOp op, long a, long b) {
        return reduceBits(k, DataType.INT64, op, a, b);
    }

    private static byte i8(ReduceKernels k, DataType type, ReduceOp op, int a, int b) {
        return (byte) reduceBits(k, type, op, a, b);
    }

    private static float f32(ReduceKernels k, ReduceOp op, float a, float b) {
        return Float.intBitsToFloat((int) reduceBits(k, DataType.FLOAT32, op, Float.floatToRawIntBits(a), Float.floatToRawIntBits(b)));
    }

    private static double f64(ReduceKernels k, ReduceOp op, double a, double b) {
        return Double.longBitsToDouble(reduceBits(k, DataType.FLOAT64, op, Double.doubleToRawLongBits(a), Double.doubleToRawLongBits(b)));
    }

    private static short half(ReduceKernels k, DataType type, ReduceOp op, short a, short b) {
        return (short) reduceBits(k, type, op, a, b);
    }

    private static int bits(float f) {
        return Float.floatToRawIntBits(f);
    }

    /** Sums {@code value} with 0 (an AVG step), then finishes the average over n contributions. */
    private static long avgBits(ReduceKernels k, DataType type, long valueBits, int n) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = run(k, type, ReduceOp.AVG, valueBits, 0, arena);
            k.finishAvg(type, seg, REPEAT, n);
            return single(type, seg);
        }
    }

    private static float avgF32(ReduceKernels k, float value, int n) {
        return Float.intBitsToFloat((int) avgBits(k, DataType.FLOAT32, Float.floatToRawIntBits(value), n));
    }

    private static long avgInt(ReduceKernels k, DataType type, long value, int n) {
        return avgBits(k, type, value, n);
    }

    private static short half(ReduceKernels k, DataType type, float value, int n) {
        short bits = type == DataType.FLOAT16 ? Half.fromFloat(value) : BFloat16.fromFloat(value);
        return (short) avgBits(k, type, bits, n);
    }
}
