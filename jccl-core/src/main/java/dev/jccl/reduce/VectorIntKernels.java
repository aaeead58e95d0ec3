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

    static long i32Sum(MemorySegment dst, MemorySegment a, MemorySegment b, long count) {
        long end = I.loopBound(count);
        for (long i = 0; i < end; i += I.length()) {
            long o = i * Integer.BYTES;
            loadI(a, o).add(loadI(b, o)).intoMemorySegment(dst, o, NATIVE);
        }
        return end;
    }

    static long i32Prod(MemorySegment dst, MemorySegment a, MemorySegment b, long count) {
        long end = I.loopBound(count);
        for (long i = 0; i < end; i += I.length()) {
            long o = i * Integer.BYTES;
            loadI(a, o).mul(loadI(b, o)).intoMemorySegment(dst, o, NATIVE);
        }
        return end;
    }

    static long i32Min(MemorySegment dst, MemorySegment a, MemorySegment b, long count) {
        long end = I.loopBound(count);
        for (long i = 0; i < end; i += I.length()) {
            long o = i * Integer.BYTES;
            loadI(a, o).min(loadI(b, o)).intoMemorySegment(dst, o, NATIVE);
        }
        return end;
    }

    static long i32Max(MemorySegment dst, MemorySegment a, MemorySegment b, long count) {
        long end = I.loopBound(count);
        for (long i = 0; i < end; i += I.length()) {
            long o = i * Integer.BYTES;
            loadI(a, o).max(loadI(b, o)).intoMemorySegment(dst, o, NATIVE);
        }
        return end;
    }

    static long i64Sum(MemorySegment dst, MemorySegment a, MemorySegment b, long count) {
        long end = L.loopBound(count);
        for (long i = 0; i < end; i += L.length()) {
            long o = i * Long.BYTES;
            loadL(a, o).add(loadL(b, o)).intoMemorySegment(dst, o, NATIVE);
        }
        return end;
    }

    static long i64Prod(MemorySegment dst, MemorySegment a, MemorySegment b, long count) {
        long end = L.loopBound(count);
        for (long i = 0; i < end; i += L.length()) {
            long o = i * Long.BYTES;
            loadL(a, o).mul(loadL(b, o)).intoMemorySegment(dst, o, NATIVE);
        }
        return end;
    }

    static long i64Min(MemorySegment dst, MemorySegment a, MemorySegment b, long count) {
        long end = L.loopBound(count);
        for (long i = 0; i < end; i += L.length()) {
            long o = i * Long.BYTES;
            loadL(a, o).min(loadL(b, o)).intoMemorySegment(dst, o, NATIVE);
        }
        return end;
    }

    static long i64Max(MemorySegment dst, MemorySegment a, MemorySegment b, long count) {
        long end = L.loopBound(count);
        for (long i = 0; i < end; i += L.length()) {
            long o = i * Long.BYTES;
            loadL(a, o).max(loadL(b, o)).intoMemorySegment(dst, o, NATIVE);
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
