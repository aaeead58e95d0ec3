package dev.jccl.reduce;

import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;

import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;

/**
 * FLOAT32 and FLOAT64 kernels. One loop per op, because the Vector API only compiles an operator to
 * SIMD instructions when the JIT sees it as a constant. Each loop covers whole vectors and returns how
 * many elements it did; the caller finishes the rest with the scalar reference.
 *
 * <p>{@code min}/{@code max} are specified as {@link Math#min(float, float)} lane by lane, so -0.0 and
 * NaN behave as in the reference; NaN results are canonicalised as there.
 */
final class VectorFloatKernels {
    private VectorFloatKernels() {}

    private static final VectorSpecies<Float> F = FloatVector.SPECIES_PREFERRED;
    private static final VectorSpecies<Double> D = DoubleVector.SPECIES_PREFERRED;
    private static final ByteOrder NATIVE = ByteOrder.nativeOrder();

    static long f32Sum(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = F.loopBound(count);
        for (long i = 0; i < end; i += F.length()) {
            long o = i * Float.BYTES;
            canonical(loadF(a, aOff + o).add(loadF(b, bOff + o))).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long f32Prod(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = F.loopBound(count);
        for (long i = 0; i < end; i += F.length()) {
            long o = i * Float.BYTES;
            canonical(loadF(a, aOff + o).mul(loadF(b, bOff + o))).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long f32Min(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = F.loopBound(count);
        for (long i = 0; i < end; i += F.length()) {
            long o = i * Float.BYTES;
            canonical(loadF(a, aOff + o).min(loadF(b, bOff + o))).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long f32Max(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = F.loopBound(count);
        for (long i = 0; i < end; i += F.length()) {
            long o = i * Float.BYTES;
            canonical(loadF(a, aOff + o).max(loadF(b, bOff + o))).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long f32DivideBy(MemorySegment seg, long count, int n) {
        float nf = n;
        long end = F.loopBound(count);
        for (long i = 0; i < end; i += F.length()) {
            long o = i * Float.BYTES;
            canonical(loadF(seg, o).div(nf)).intoMemorySegment(seg, o, NATIVE);
        }
        return end;
    }

    static long f64Sum(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = D.loopBound(count);
        for (long i = 0; i < end; i += D.length()) {
            long o = i * Double.BYTES;
            canonical(loadD(a, aOff + o).add(loadD(b, bOff + o))).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long f64Prod(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = D.loopBound(count);
        for (long i = 0; i < end; i += D.length()) {
            long o = i * Double.BYTES;
            canonical(loadD(a, aOff + o).mul(loadD(b, bOff + o))).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long f64Min(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = D.loopBound(count);
        for (long i = 0; i < end; i += D.length()) {
            long o = i * Double.BYTES;
            canonical(loadD(a, aOff + o).min(loadD(b, bOff + o))).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long f64Max(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = D.loopBound(count);
        for (long i = 0; i < end; i += D.length()) {
            long o = i * Double.BYTES;
            canonical(loadD(a, aOff + o).max(loadD(b, bOff + o))).intoMemorySegment(dst, dOff + o, NATIVE);
        }
        return end;
    }

    static long f64DivideBy(MemorySegment seg, long count, int n) {
        double nd = n;
        long end = D.loopBound(count);
        for (long i = 0; i < end; i += D.length()) {
            long o = i * Double.BYTES;
            canonical(loadD(seg, o).div(nd)).intoMemorySegment(seg, o, NATIVE);
        }
        return end;
    }

    private static FloatVector loadF(MemorySegment seg, long offset) {
        return FloatVector.fromMemorySegment(F, seg, offset, NATIVE);
    }

    private static DoubleVector loadD(MemorySegment seg, long offset) {
        return DoubleVector.fromMemorySegment(D, seg, offset, NATIVE);
    }

    /** Every NaN lane becomes Float.NaN, as in {@link ScalarKernels#canonical(float)}. */
    static FloatVector canonical(FloatVector r) {
        return r.blend(Float.NaN, r.compare(VectorOperators.NE, r));
    }

    static DoubleVector canonical(DoubleVector r) {
        return r.blend(Double.NaN, r.compare(VectorOperators.NE, r));
    }
}
