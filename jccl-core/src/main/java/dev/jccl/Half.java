package dev.jccl;

/**
 * IEEE 754 binary16 ("half", {@link DataType#FLOAT16}) held as its 16 raw bits in a {@code short}.
 * Conversions are the JDK's: widening is exact; narrowing rounds to nearest, ties to even, overflows to
 * infinity and keeps a NaN a NaN.
 */
public final class Half {
    private Half() {}

    public static final short POSITIVE_INFINITY = (short) 0x7C00;
    public static final short NEGATIVE_INFINITY = (short) 0xFC00;
    /** The quiet NaN the reduction kernels write for every NaN result. */
    public static final short NaN = (short) 0x7E00;
    /** 65504, the largest finite half. */
    public static final short MAX_VALUE = (short) 0x7BFF;

    public static float toFloat(short bits) {
        return Float.float16ToFloat(bits);
    }

    public static short fromFloat(float value) {
        return Float.floatToFloat16(value);
    }

    public static boolean isNaN(short bits) {
        return (bits & 0x7C00) == 0x7C00 && (bits & 0x03FF) != 0;
    }
}
