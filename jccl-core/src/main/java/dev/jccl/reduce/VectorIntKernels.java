package dev.jccl.reduce;

import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * INT32 and INT64 kernels: lane arithmetic wraps exactly like Java's int and long, so they match the
 * reference without further care. One loop per op (see {@link VectorFloatKernels}); each returns the
 * number of elements done.
 */
final class VectorIntKernels {
    private VectorIntKernels() {}

    private static final VectorSpecies<Integer> I = IntVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Long> L = LongVector.SPECIES_PREFERRED;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    static long i32Sum(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = I.loopBound(count);
        for (long i = 0; i < end; i += I.length()) {
            long o = i * Integer.BYTES;
            loadI(a, aOff + o).add(loadI(b, bOff + o)).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long i32Prod(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = I.loopBound(count);
        for (long i = 0; i < end; i += I.length()) {
            long o = i * Integer.BYTES;
            loadI(a, aOff + o).mul(loadI(b, bOff + o)).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long i32Min(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = I.loopBound(count);
        for (long i = 0; i < end; i += I.length()) {
            long o = i * Integer.BYTES;
            loadI(a, aOff + o).min(loadI(b, bOff + o)).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long i32Max(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = I.loopBound(count);
        for (long i = 0; i < end; i += I.length()) {
            long o = i * Integer.BYTES;
            loadI(a, aOff + o).max(loadI(b, bOff + o)).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long i64Sum(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = L.loopBound(count);
        for (long i = 0; i < end; i += L.length()) {
            long o = i * Long.BYTES;
            loadL(a, aOff + o).add(loadL(b, bOff + o)).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long i64Prod(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = L.loopBound(count);
        for (long i = 0; i < end; i += L.length()) {
            long o = i * Long.BYTES;
            loadL(a, aOff + o).mul(loadL(b, bOff + o)).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long i64Min(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = L.loopBound(count);
        for (long i = 0; i < end; i += L.length()) {
            long o = i * Long.BYTES;
            loadL(a, aOff + o).min(loadL(b, bOff + o)).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long i64Max(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = L.loopBound(count);
        for (long i = 0; i < end; i += L.length()) {
            long o = i * Long.BYTES;
            loadL(a, aOff + o).max(loadL(b, bOff + o)).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    private static IntVector loadI(MemorySegment seg, long offset) {
        return IntVector.fromMemorySegment(I, seg, offset, NATIVE);
    }

    private static LongVector loadL(MemorySegment seg, long offset) {
        return LongVector.fromMemorySegment(L, seg, offset, NATIVE);
    }
}
