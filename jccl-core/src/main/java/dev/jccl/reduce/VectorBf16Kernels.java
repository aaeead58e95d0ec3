package dev.jccl.reduce;

import java.lang.foreign.MemorySegment;

import static dev.jccl.reduce.HalfLanes.STEP;
import static dev.jccl.reduce.HalfLanes.bf16ToFloat;
import static dev.jccl.reduce.HalfLanes.loadBits;
import static dev.jccl.reduce.HalfLanes.storeBits;
import static dev.jccl.reduce.HalfLanes.toBf16;

/**
 * BFLOAT16 kernels: widen to float32 lanes, operate, round back once (NaN canonical), exactly as the
 * reference does element by element. One loop per op (see {@link VectorFloatKernels});
 * each returns the number of elements done, 0 where {@link HalfLanes#SUPPORTED} is false.
 */
final class VectorBf16Kernels {
    private VectorBf16Kernels() {}

    private static final long BYTES = 2;

    static long bf16Sum(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = HalfLanes.loopBound(count);
        for (long i = 0; i < end; i += STEP) {
            long o = i * BYTES;
            storeBits(toBf16(bf16ToFloat(loadBits(a, aOff + o)).add(bf16ToFloat(loadBits(b, bOff + o)))), dst, dOff + o);
        }
        return end;
    }

    static long bf16Prod(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = HalfLanes.loopBound(count);
        for (long i = 0; i < end; i += STEP) {
            long o = i * BYTES;
            storeBits(toBf16(bf16ToFloat(loadBits(a, aOff + o)).mul(bf16ToFloat(loadBits(b, bOff + o)))), dst, dOff + o);
        }
        return end;
    }

    static long bf16Min(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = HalfLanes.loopBound(count);
        for (long i = 0; i < end; i += STEP) {
            long o = i * BYTES;
            storeBits(toBf16(bf16ToFloat(loadBits(a, aOff + o)).min(bf16ToFloat(loadBits(b, bOff + o)))), dst, dOff + o);
        }
        return end;
    }

    static long bf16Max(MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = HalfLanes.loopBound(count);
        for (long i = 0; i < end; i += STEP) {
            long o = i * BYTES;
            storeBits(toBf16(bf16ToFloat(loadBits(a, aOff + o)).max(bf16ToFloat(loadBits(b, bOff + o)))), dst, dOff + o);
        }
        return end;
    }

    static long bf16DivideBy(MemorySegment seg, long count, int n) {
        float nf = n;
        long end = HalfLanes.loopBound(count);
        for (long i = 0; i < end; i += STEP) {
            long o = i * BYTES;
            storeBits(toBf16(bf16ToFloat(loadBits(seg, o)).div(nf)), seg, o);
        }
        return end;
    }
}
