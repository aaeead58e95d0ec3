package dev.jccl.testkit;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Fast, position-dependent byte patterns for verifying transfers of any size byte for byte.
 *
 * <p>The byte at logical position {@code p} of the pattern {@code seed} is byte {@code p % 8} of
 * {@code mix(seed, p / 8)}, so any sub-range can be generated on its own: a region filled from
 * position 0 can be checked from position {@code n} onwards (the untouched tail after a write of n
 * bytes). Filling writes whole longs; checking generates the expected bytes chunk by chunk into a
 * small scratch segment and compares with {@link MemorySegment#mismatch}, so a 256 MiB check costs
 * a fraction of a second and no second 256 MiB buffer.
 */
public final class Patterns {
    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final long CHUNK_BYTES = 1 << 20;

    private Patterns() {}

    /** Fills {@code seg} with pattern {@code seed}, starting at logical position 0. */
    public static void fill(MemorySegment seg, long seed) {
        fill(seg, seed, 0);
    }

    /** Fills {@code seg} with the bytes of pattern {@code seed} from logical position {@code firstPos} on. */
    public static void fill(MemorySegment seg, long seed, long firstPos) {
        long n = seg.byteSize();
        long i = 0;
        // Head: single bytes until the logical position is a multiple of 8.
        while (i < n && ((firstPos + i) & 7) != 0) {
            seg.set(ValueLayout.JAVA_BYTE, i, byteAt(seed, firstPos + i));
            i++;
        }
        long word = (firstPos + i) >>> 3;
        for (; n - i >= 8; i += 8) {
            seg.set(LONG_LE, i, mix(seed, word++));
        }
        for (; i < n; i++) {
            seg.set(ValueLayout.JAVA_BYTE, i, byteAt(seed, firstPos + i));
        }
    }

    /** Offset of the first byte of {@code seg} that differs from pattern {@code seed} at {@code firstPos}, or -1. */
    public static long firstMismatch(MemorySegment seg, long seed, long firstPos) {
        long n = seg.byteSize();
        if (n == 0) return -1;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment expected = arena.allocate(Math.min(n, CHUNK_BYTES), 8);
            for (long off = 0; off < n; off += CHUNK_BYTES) {
                long len = Math.min(CHUNK_BYTES, n - off);
                MemorySegment want = expected.asSlice(0, len);
                fill(want, seed, firstPos + off);
                long at = MemorySegment.mismatch(seg, off, off + len, want, 0, len);
                if (at >= 0) return off + at;
            }
        }
        return -1;
    }

    /**
     * Fails naming {@code what}, the offset and both bytes unless {@code seg} holds pattern
     * {@code seed} from logical position {@code firstPos}.
     */
    public static void assertPattern(String what, MemorySegment seg, long seed, long firstPos) {
        long at = firstMismatch(seg, seed, firstPos);
        if (at >= 0) {
            throw new AssertionError(String.format("%s: byte %d of %d differs: expected 0x%02x, found 0x%02x",
                    what, at, seg.byteSize(), byteAt(seed, firstPos + at) & 0xff,
                    seg.get(ValueLayout.JAVA_BYTE, at) & 0xff));
        }
    }

    /** The pattern byte at logical position {@code pos}. */
    public static byte byteAt(long seed, long pos) {
        return (byte) (mix(seed, pos >>> 3) >>> ((pos & 7) * 8));
    }

    /** SplitMix64's finaliser over (seed, index): every bit depends on both, so shifted data never matches. */
    static long mix(long seed, long index) {
        long z = seed * 0xD1B54A32D192ED03L + (index + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
