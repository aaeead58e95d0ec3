package dev.jccl.reduce;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * INT8 and UINT8 kernels. Byte lanes wrap mod 256, and a sum or product mod 256 has the same bits
 * whether the bytes are read signed or unsigned, so both types share SUM and PROD; only MIN/MAX differ
 * (UMIN/UMAX compare unsigned). One loop per op (see {@link VectorFloatKernels}).
 */
final class VectorByteKernels {
    private VectorByteKernels() {}

    private static final VectorSpecies<Byte> B = ByteVector.SPECIES_PREFERRED;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    static long sum(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = B.loopBound(count);
        for (long i = 0; i < end; i += B.length()) {
            load(a, aOff + i).add(load(b, bOff + i)).intoMemorySegment(dst, dOff + i, NATIVE);
        }
        return end;
    }

    static long prod(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = B.loopBound(count);
        for (long i = 0; i < end; i += B.length()) {
            load(a, aOff + i).mul(load(b, bOff + i)).intoMemorySegment(dst, dOff + i, NATIVE);
        }
        return end;
    }

    static long i8Min(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = B.loopBound(count);
        for (long i = 0; i < end; i += B.length()) {
            load(a, aOff + i).min(load(b, bOff + i)).intoMemorySegment(dst, dOff + i, NATIVE);
        }
        return end;
    }

    static long i8Max(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = B.loopBound(count);
        for (long i = 0; i < end; i += B.length()) {
            load(a, aOff + i).max(load(b, bOff + i)).intoMemorySegment(dst, dOff + i, NATIVE);
        }
        return end;
    }

    static long u8Min(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = B.loopBound(count);
        for (long i = 0; i < end; i += B.length()) {
            load(a, aOff + i).lanewise(VectorOperators.UMIN, load(b, bOff + i)).intoMemorySegment(dst, dOff + i, NATIVE);
        }
        return end;
    }

    static long u8Max(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = B.loopBound(count);
        for (long i = 0; i < end; i += B.length()) {
            load(a, aOff + i).lanewise(VectorOperators.UMAX, load(b, bOff + i)).intoMemorySegment(dst, dOff + i, NATIVE);
        }
        return end;
    }

    private static ByteVector load(MemorySegment seg, long offset) {
        return ByteVector.fromMemorySegment(B, seg, offset, NATIVE);
    }
}
