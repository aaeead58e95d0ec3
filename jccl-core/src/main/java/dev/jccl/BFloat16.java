package dev.jccl;

/**
 * bfloat16 ({@link DataType#BFLOAT16}): the upper 16 bits of a float32, held in a {@code short}. It
 * keeps float32's exponent range and has 8 significant bits.
 */
public final class BFloat16 {
    private BFloat16() {}

    public static final short POSITIVE_INFINITY = (short) 0x7F80;
    public static final short NEGATIVE_INFINITY = (short) 0xFF80;
    /** The quiet NaN the reduction kernels write for every NaN result. */
    public static final short NaN = (short) 0x7FC0;

    /** Exact: the bits become the upper half of a float32. */
    public static float toFloat(short bits) {
        return Float.intBitsToFloat(bits << 16);
    }

    /**
     * Rounds to nearest, ties to even. Adding 0x7FFF plus the lowest kept bit and truncating does the
     * rounding in integer arithmetic; a carry out of the significand bumps the exponent, which is how
     * values near the top round to infinity. NaN is handled apart: its payload may live only in the
     * dropped bits, and rounding would then make it infinity, so it keeps its sign and upper payload
     * and gets the quiet bit.
     */
    public static short fromFloat(float value) {
        int bits = Float.floatToRawIntBits(value);
        if (Float.isNaN(value)) return (short) ((bits >>> 16) | 0x0040);
        return (short) ((bits + 0x7FFF + ((bits >>> 16) & 1)) >>> 16);
    }

    public static boolean isNaN(short bits) {
        return (bits & 0x7F80) == 0x7F80 && (bits & 0x007F) != 0;
    }
}
