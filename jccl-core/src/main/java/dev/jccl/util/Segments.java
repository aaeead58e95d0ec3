package dev.jccl.util;

import java.lang.foreign.MemorySegment;

/** Small helpers over {@link MemorySegment} that several layers need. */
public final class Segments {
    private Segments() {}

    /** Fails with both numbers named when [offset, offset+length) does not fit in {@code size}. */
    public static void checkRange(long offset, long length, long size, String what) {
        if (offset < 0 || length < 0 || offset > size || length > size - offset) {
            throw new IndexOutOfBoundsException(what + ": range [" + offset + ", " + offset + "+" + length
                    + ") is outside [0, " + size + ")");
        }
    }

    /** Fills a segment with a byte pattern that depends on position and seed, for verification. */
    public static void fillPattern(MemorySegment seg, long seed) {
        long n = seg.byteSize();
        for (long i = 0; i < n; i++) {
            seg.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, patternByte(seed, i));
        }
    }

    /** Returns the first offset where {@code seg} differs from the pattern, or -1. */
    public static long firstPatternMismatch(MemorySegment seg, long seed) {
        long n = seg.byteSize();
        for (long i = 0; i < n; i++) {
            if (seg.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i) != patternByte(seed, i)) return i;
        }
        return -1;
    }

    public static byte patternByte(long seed, long index) {
        long x = index * 0x9E3779B97F4A7C15L + seed;
        x ^= x >>> 29;
        return (byte) (x ^ (x >>> 7));
    }

    public static long alignUp(long value, long alignment) {
        if (Long.bitCount(alignment) != 1) throw new IllegalArgumentException("alignment not a power of two: " + alignment);
        return (value + alignment - 1) & -alignment;
    }
}
