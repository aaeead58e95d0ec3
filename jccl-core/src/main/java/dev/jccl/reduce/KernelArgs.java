package dev.jccl.reduce;

import dev.jccl.DataType;
import dev.jccl.util.Segments;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * The checks every kernel call passes before touching memory, so that a bad call fails naming its
 * values instead of reading or writing outside its buffers.
 */
final class KernelArgs {
    private KernelArgs() {}

    /** Returns the byte length of {@code count} elements, after checking that it fits a long. */
    static long bytes(DataType type, long count) {
        Objects.requireNonNull(type, "type");
        return type.bytes(count);
    }

    static void checkDestination(MemorySegment dst, long bytes) {
        checkDestination(dst, 0, bytes);
    }

    static void checkDestination(MemorySegment dst, long offset, long bytes) {
        checkNative(dst, "dst");
        if (dst.isReadOnly()) throw new IllegalArgumentException("reduce: dst is a read-only segment");
        Segments.checkRange(offset, bytes, dst.byteSize(), "reduce dst");
    }

    /**
     * A source may be the destination itself (in place) but must not overlap it partially: the vector
     * kernel reads a whole vector before it writes, the scalar one element by element, so a shifted
     * overlap would make their results differ.
     */
    static void checkSource(MemorySegment src, String name, MemorySegment dst, long bytes) {
        checkSource(src, 0, name, dst, 0, bytes);
    }

    /** {@link #checkSource(MemorySegment, String, MemorySegment, long)} for ranges at byte offsets. */
    static void checkSource(MemorySegment src, long srcOffset, String name, MemorySegment dst, long dstOffset, long bytes) {
        checkNative(src, name);
        if (srcOffset < 0 || bytes > src.byteSize() - srcOffset) {
            Segments.checkRange(srcOffset, bytes, src.byteSize(), "reduce " + name); // names built only to fail
        }
        long s = src.address() + srcOffset;
        long d = dst.address() + dstOffset;
        if (s != d && s < d + bytes && d < s + bytes) {
            throw new IllegalArgumentException("reduce: " + name + " [0x" + Long.toHexString(s) + ", +" + bytes
                    + ") partially overlaps dst [0x" + Long.toHexString(d) + ", +" + bytes
                    + "); a source must be dst itself or disjoint from it");
        }
    }

    /**
     * Heap segments are refused rather than copied: a copy would hide an allocation and a memcpy on the
     * hottest path, and a second segment kind would make the kernels' call sites polymorphic.
     */
    private static void checkNative(MemorySegment seg, String name) {
        Objects.requireNonNull(seg, name);
        if (!seg.isNative()) {
            throw new IllegalArgumentException("reduce: " + name + " is a heap segment (" + seg
                    + "); kernels take native memory only (Arena.allocate or a mapped file)");
        }
    }
}
