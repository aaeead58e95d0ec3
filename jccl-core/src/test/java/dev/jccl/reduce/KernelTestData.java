package dev.jccl.reduce;

import dev.jccl.BFloat16;
import dev.jccl.DataType;
import dev.jccl.Half;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

/**
 * Seeded test inputs that reach the corners of every type: for floats, signed zeros, infinities, NaNs
 * with several payloads and signs, subnormals, extremes, plain values and raw bit patterns; for
 * integers, the extremes and values whose sums and products overflow.
 */
final class KernelTestData {
    private KernelTestData() {}

    private static final float[] FLOAT_SPECIALS = {0f, -0f, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY,
            Float.NaN, Float.intBitsToFloat(0x7F800001), Float.intBitsToFloat(0xFFC00123), Float.MIN_VALUE,
            -Float.MIN_VALUE, Float.MIN_NORMAL, Float.intBitsToFloat(0x007FFFFF), Float.MAX_VALUE, -Float.MAX_VALUE,
            1f, -1f, 0.5f, 3f, 1e30f, 1e-30f};
    private static final double[] DOUBLE_SPECIALS = {0d, -0d, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY,
            Double.NaN, Double.longBitsToDouble(0x7FF0000000000001L), Double.longBitsToDouble(0xFFF8000000001234L),
            Double.MIN_VALUE, -Double.MIN_VALUE, Double.MIN_NORMAL, Double.MAX_VALUE, -Double.MAX_VALUE, 1d, -1d, 3d};
    private static final short[] HALF_SPECIALS = {0x0000, (short) 0x8000, 0x7C00, (short) 0xFC00, 0x7E00, 0x7C01,
            (short) 0xFE55, 0x0001, (short) 0x8001, 0x03FF, 0x0400, 0x7BFF, (short) 0xFBFF, 0x3C00, (short) 0xBC00};
    private static final short[] BF16_SPECIALS = {0x0000, (short) 0x8000, 0x7F80, (short) 0xFF80, 0x7FC0, 0x7F81,
            (short) 0xFFD5, 0x0001, (short) 0x8001, 0x007F, 0x0080, 0x7F7F, (short) 0xFF7F, 0x3F80, (short) 0xBF80};
    private static final long[] INT_SPECIALS = {0, 1, -1, 2, -2, Long.MIN_VALUE, Long.MAX_VALUE, Integer.MIN_VALUE,
            Integer.MAX_VALUE, 127, -128, 128, 255, 0xFFFF_FFFFL, 1L << 32, 1L << 40};

    /** Writes {@code count} values of {@code type} into {@code seg} from {@code random}. */
    static void fill(DataType type, MemorySegment seg, long count, Random random) {
        for (long i = 0; i < count; i++) {
            int pick = random.nextInt(100);
            switch (type) {
                case FLOAT32 -> seg.set(ValueLayout.JAVA_FLOAT_UNALIGNED, i * 4,
                        pick < 25 ? FLOAT_SPECIALS[random.nextInt(FLOAT_SPECIALS.length)]
                                : pick < 60 ? Float.intBitsToFloat(random.nextInt())
                                : (random.nextFloat() - 0.5f) * 2000f);
                case FLOAT64 -> seg.set(ValueLayout.JAVA_DOUBLE_UNALIGNED, i * 8,
                        pick < 25 ? DOUBLE_SPECIALS[random.nextInt(DOUBLE_SPECIALS.length)]
                                : pick < 60 ? Double.longBitsToDouble(random.nextLong())
                                : (random.nextDouble() - 0.5) * 2000);
                case FLOAT16 -> seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, i * 2,
                        pick < 25 ? HALF_SPECIALS[random.nextInt(HALF_SPECIALS.length)]
                                : pick < 60 ? (short) random.nextInt()
                                : Half.fromFloat((random.nextFloat() - 0.5f) * 200f));
                case BFLOAT16 -> seg.set(ValueLayout.JAVA_SHORT_UNALIGNED, i * 2,
                        pick < 25 ? BF16_SPECIALS[random.nextInt(BF16_SPECIALS.length)]
                                : pick < 60 ? (short) random.nextInt()
                                : BFloat16.fromFloat((random.nextFloat() - 0.5f) * 200f));
                default -> {
                    long v = pick < 30 ? INT_SPECIALS[random.nextInt(INT_SPECIALS.length)]
                            : pick < 70 ? random.nextLong() : random.nextInt(21) - 10;
                    switch (type.byteSize()) {
                        case 1 -> seg.set(ValueLayout.JAVA_BYTE, i, (byte) v);
                        case 4 -> seg.set(ValueLayout.JAVA_INT_UNALIGNED, i * 4, (int) v);
                        default -> seg.set(ValueLayout.JAVA_LONG_UNALIGNED, i * 8, v);
                    }
                }
            }
        }
    }

    /**
     * Makes some elements of {@code b} depend on {@code a} (b = -a, b = a), so that sums reach exact
     * zeros with their sign rules and MIN/MAX compare equal values.
     */
    static void relate(DataType type, MemorySegment a, MemorySegment b, long count, Random random) {
        int size = type.byteSize();
        for (long i = 0; i < count; i++) {
            int pick = random.nextInt(100);
            if (pick < 5) {
                MemorySegment.copy(a, i * size, b, i * size, size);
            } else if (pick < 12 && type.isFloatingPoint()) {
                // Flip the sign bit: the highest bit of the element in little-endian order.
                long top = i * size + size - 1;
                b.set(ValueLayout.JAVA_BYTE, top, (byte) (a.get(ValueLayout.JAVA_BYTE, top) ^ 0x80));
            }
        }
    }

    /** The element's bits in hex, for failure messages. */
    static String hex(DataType type, MemorySegment seg, long index) {
        int size = type.byteSize();
        StringBuilder s = new StringBuilder("0x");
        for (int k = size - 1; k >= 0; k--) {
            s.append(String.format("%02x", seg.get(ValueLayout.JAVA_BYTE, index * size + k)));
        }
        return s.toString();
    }
}
