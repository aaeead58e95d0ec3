package dev.jccl.reduce;

import dev.jccl.BFloat16;
import dev.jccl.Half;
import jdk.incubator.vector.FloatVector;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The vector-lane conversions against the JDK's float16 conversions and {@link BFloat16}: widening of
 * all 65536 bit patterns, and narrowing of every half value, every midpoint between neighbours and
 * the floats on either side of it, the specials and random bit patterns.
 */
@Timeout(60)
@Tag("unit")
class HalfLanesTest {
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    @Test
    void widenF16MatchesJdkForAllBitPatterns() {
        checkWidening(HalfLanes::f16ToFloat, Half::toFloat);
    }

    @Test
    void widenBf16MatchesReferenceForAllBitPatterns() {
        checkWidening(HalfLanes::bf16ToFloat, BFloat16::toFloat);
    }

    @Test
    void narrowF16MatchesJdkAtEveryRoundingBoundary() {
        checkNarrowing(HalfLanes::toF16, f -> Half.fromFloat(ScalarKernels.canonical(f)), boundaryFloats(false));
    }

    @Test
    void narrowBf16MatchesReferenceAtEveryRoundingBoundary() {
        checkNarrowing(HalfLanes::toBf16, f -> BFloat16.fromFloat(ScalarKernels.canonical(f)), boundaryFloats(true));
    }

    private static void checkWidening(Function<jdk.incubator.vector.IntVector, FloatVector> lanes,
                                      Function<Short, Float> reference) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment halves = arena.allocate(2L * 0x10000);
            MemorySegment floats = arena.allocate(4L * 0x10000);
            for (int h = 0; h < 0x10000; h++) halves.setAtIndex(ValueLayout.JAVA_SHORT, h, (short) h);
            for (long i = 0; i < 0x10000; i += HalfLanes.STEP) {
                lanes.apply(HalfLanes.loadBits(halves, i * 2)).intoMemorySegment(floats, i * 4, NATIVE);
            }
            for (int h = 0; h < 0x10000; h++) {
                float want = reference.apply((short) h);
                float got = floats.getAtIndex(ValueLayout.JAVA_FLOAT, h);
                String what = "half bits 0x" + Integer.toHexString(h);
                if (Float.isNaN(want)) assertTrue(Float.isNaN(got), what);
                else assertEquals(Float.floatToRawIntBits(want), Float.floatToRawIntBits(got), what);
            }
        }
    }

    private static void checkNarrowing(Function<FloatVector, jdk.incubator.vector.IntVector> lanes,
                                       Function<Float, Short> reference, float[] inputs) {
        int step = HalfLanes.STEP;
        int n = (inputs.length + step - 1) / step * step;
        float[] padded = Arrays.copyOf(inputs, n);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment floats = arena.allocate(4L * n);
            MemorySegment halves = arena.allocate(2L * n);
            MemorySegment.copy(padded, 0, floats, ValueLayout.JAVA_FLOAT, 0, n);
            for (long i = 0; i < n; i += step) {
                FloatVector v = FloatVector.fromMemorySegment(HalfLanes.F, floats, i * 4, NATIVE);
                HalfLanes.storeBits(lanes.apply(v), halves, i * 2);
            }
            for (int i = 0; i < n; i++) {
                float f = padded[i];
                short want = reference.apply(f);
                short got = halves.getAtIndex(ValueLayout.JAVA_SHORT, i);
                assertEquals(want, got, () -> "float bits 0x" + Integer.toHexString(Float.floatToRawIntBits(f)));
            }
        }
    }

    /**
     * Every representable value of the half type, each midpoint between neighbours (exact in float32)
     * and the floats just below and above it, with both signs; plus specials and random bit patterns.
     */
    private static float[] boundaryFloats(boolean bf16) {
        int maxFinite = bf16 ? 0x7F7F : 0x7BFF;
        float[] out = new float[(maxFinite + 1) * 8 + 1_000_000 + 16];
        int k = 0;
        for (int h = 0; h <= maxFinite; h++) {
            float lo = bf16 ? BFloat16.toFloat((short) h) : Half.toFloat((short) h);
            float mid;
            if (h == maxFinite && bf16) {
                mid = Float.intBitsToFloat(0x7F7F8000); // midway to 2^128, itself a finite float
            } else { // for FLOAT16 the neighbour above the largest finite value is 2^16
                float hi = h == maxFinite ? 65536f : bf16 ? BFloat16.toFloat((short) (h + 1)) : Half.toFloat((short) (h + 1));
                mid = (lo + hi) / 2;
            }
            for (float f : new float[] {lo, mid, Math.nextDown(mid), Math.nextUp(mid)}) {
                out[k++] = f;
                out[k++] = -f;
            }
        }
        float[] specials = {Float.NaN, Float.intBitsToFloat(0x7F800001), Float.intBitsToFloat(0xFFC00001),
                Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.MAX_VALUE, -Float.MAX_VALUE,
                Float.MIN_VALUE, -Float.MIN_VALUE, Float.MIN_NORMAL, 65520f, 65519.996f, 0x1p-25f, 0x1p-26f, 0f, -0f};
        for (float f : specials) out[k++] = f;
        Random random = new Random(11);
        while (k < out.length) out[k++] = Float.intBitsToFloat(random.nextInt());
        return out;
    }
}
