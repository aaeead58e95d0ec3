package dev.jccl.reduce;

import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

import static jdk.incubator.vector.VectorOperators.GE;
import static jdk.incubator.vector.VectorOperators.GT;
import static jdk.incubator.vector.VectorOperators.I2S;
import static jdk.incubator.vector.VectorOperators.LSHL;
import static jdk.incubator.vector.VectorOperators.LSHR;
import static jdk.incubator.vector.VectorOperators.LT;
import static jdk.incubator.vector.VectorOperators.ZERO_EXTEND_S2I;

/**
 * Half-type lanes as float32 vectors, with the conversions done in integer lanes (the Vector API has
 * no float16 conversion). {@link #I}{@code .length()} halves are read as a short vector of half the
 * width and zero-extended to int lanes; results are narrowed back the same way.
 *
 * <p>The conversions equal {@link Float#float16ToFloat}, {@link Float#floatToFloat16} and
 * {@link dev.jccl.BFloat16} for every non-NaN value (the tests check all 65536 halves and every rounding
 * boundary). NaN inputs widen to some NaN; narrowing writes the canonical NaN of the type, as the
 * reference does.
 */
final class HalfLanes {
    private HalfLanes() {}

    static final VectorSpecies<Integer> I = IntVector.SPECIES_PREFERRED;
    static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    /** Short vectors hold half as many bits as I; there is none below 64 bits. */
    static final boolean SUPPORTED = I.vectorBitSize() >= 128;
    private static final VectorSpecies<Short> S = SUPPORTED
            ? VectorSpecies.of(short.class, VectorShape.forBitSize(I.vectorBitSize() / 2)) : null;
    /** Half elements per iteration. */
    static final int STEP = I.length();
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    private static final int FLOAT_INFINITY_BITS = 0x7F800000;

    /** {@code count} rounded down to whole steps; 0 where half lanes are not supported. */
    static long loopBound(long count) {
        return SUPPORTED ? count - count % STEP : 0;
    }

    /** {@link #STEP} half values from byte {@code offset}, zero-extended into int lanes. */
    static IntVector loadBits(MemorySegment seg, long offset) {
        return (IntVector) ShortVector.fromMemorySegment(S, seg, offset, NATIVE).convertShape(ZERO_EXTEND_S2I, I, 0);
    }

    /** Stores the low 16 bits of each lane. */
    static void storeBits(IntVector bits, MemorySegment seg, long offset) {
        ((ShortVector) bits.convertShape(I2S, S, 0)).intoMemorySegment(seg, offset, NATIVE);
    }

    static FloatVector bf16ToFloat(IntVector bits) {
        return bits.lanewise(LSHL, 16).reinterpretAsFloats();
    }

    /**
     * Round to nearest even in integer lanes, as {@link dev.jccl.BFloat16#fromFloat}; NaN lanes become
     * the canonical quiet NaN. Returns the bfloat16 bits in the low 16 bits of each lane.
     */
    static IntVector toBf16(FloatVector value) {
        IntVector x = value.reinterpretAsInts();
        IntVector rounded = x.add(0x7FFF).add(x.lanewise(LSHR, 16).and(1)).lanewise(LSHR, 16);
        return rounded.blend(0x7FC0, x.and(0x7FFFFFFF).compare(GT, FLOAT_INFINITY_BITS));
    }

    /**
     * {@code h} holds half bits in the low 16 bits of each lane, zero above. Two candidates, chosen
     * per lane, neither of which ever feeds a float32 subnormal to the FPU (x86 takes a microcode
     * assist of a hundred cycles or more on each such operation):
     * normal halves (and infinity, NaN): exponent and significand shifted into float32 position with
     * the exponent raised by 224, then scaled by 2^-112, which lands exponent 31 on float32's all-ones
     * exponent and the others on e - 15;
     * subnormal halves: the significand m placed under the exponent of 0.5, giving 0.5 + m * 2^-24,
     * minus 0.5. Both are exact. Then the sign goes back on.
     */
    static FloatVector f16ToFloat(IntVector h) {
        IntVector magnitude = h.and(0x7FFF);
        FloatVector normal = magnitude.lanewise(LSHL, 13).add(0x70000000).reinterpretAsFloats().mul(0x1p-112f);
        FloatVector subnormal = magnitude.or(0x3F000000).reinterpretAsFloats().sub(0.5f);
        IntVector bits = normal.blend(subnormal, magnitude.compare(LT, 0x0400).cast(F)).reinterpretAsInts();
        return bits.or(h.and(0x8000).lanewise(LSHL, 16)).reinterpretAsFloats();
    }

    /**
     * Round to nearest even on the magnitude, in three ranges chosen per lane:
     * at or above 2^16: infinity;
     * below 2^-14 (half subnormals): adding 0.5f makes the float32 adder round at the half-subnormal
     * quantum 2^-24, and subtracting 0.5f's bits leaves the half bits;
     * otherwise: rebias the exponent (-112 << 23) and round the 13 dropped bits in integer arithmetic
     * (add 0xFFF plus the lowest kept bit); a carry into the exponent rounds up to the next binade,
     * which for [65520, 2^16) is the all-ones exponent: infinity, as round to nearest even requires.
     * Then the sign goes back on, and NaN lanes become the canonical quiet NaN. Returns the half bits
     * in the low 16 bits of each lane.
     */
    static IntVector toF16(FloatVector value) {
        IntVector bits = value.reinterpretAsInts();
        IntVector abs = bits.and(0x7FFFFFFF);
        IntVector normal = abs.add(0xC8000FFF).add(abs.lanewise(LSHR, 13).and(1)).lanewise(LSHR, 13);
        IntVector subnormal = abs.reinterpretAsFloats().add(0.5f).reinterpretAsInts().sub(0x3F000000);
        IntVector half = normal.blend(subnormal, abs.compare(LT, 0x38800000))
                .blend(0x7C00, abs.compare(GE, 0x47800000))
                .or(bits.lanewise(LSHR, 16).and(0x8000));
        return half.blend(0x7E00, abs.compare(GT, FLOAT_INFINITY_BITS));
    }
}
