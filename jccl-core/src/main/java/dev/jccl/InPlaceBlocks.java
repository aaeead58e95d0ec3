package dev.jccl;

import java.lang.foreign.MemorySegment;

/** The block of a buffer that NCCL's in-place conventions name, checked before slicing. */
final class InPlaceBlocks {
    private InPlaceBlocks() {}

    static MemorySegment of(MemorySegment buf, int rank, long count, DataType type, String op) {
        if (buf == null) throw new IllegalArgumentException(op + ": buffer is null");
        if (count < 0) throw new IllegalArgumentException(op + ": negative count " + count);
        long bytes = type.bytes(count);
        long offset;
        try {
            offset = Math.multiplyExact(bytes, (long) rank);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(op + ": count " + count + " overflows a byte offset");
        }
        if (offset + bytes > buf.byteSize() || offset + bytes < 0) {
            throw new IllegalArgumentException(op + " in place: buffer of " + buf.byteSize() + " bytes cannot hold block "
                    + rank + " of " + count + " " + type.ncclName() + " (needs " + (offset + bytes) + " bytes)");
        }
        return buf.asSlice(offset, bytes);
    }
}
