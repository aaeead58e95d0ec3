package dev.jccl.reduce;

import dev.jccl.ReduceOp;
import jdk.incubator.vector.FloatVector;

import java.lang.foreign.MemorySegment;

import static dev.jccl.reduce.HalfLanes.F;
import static dev.jccl.reduce.HalfLanes.STEP;
import static dev.jccl.reduce.HalfLanes.f16ToFloat;
import static dev.jccl.reduce.HalfLanes.loadBits;
import static dev.jccl.reduce.HalfLanes.storeBits;
import static dev.jccl.reduce.HalfLanes.toF16;

/**
 * FLOAT16 kernels: widen to float32 lanes, operate, round back once (NaN canonical), exactly as the
 * reference does element by element.
 *
 * <p>Unlike BFLOAT16, both FLOAT16 conversions take a dozen vector operations, and a loop body that
 * widens, operates and narrows in one go is too large for C2 to inline whole (NodeCountInliningCutoff);
 * the call it gives up on boxes its vectors, which made that loop no faster than the scalar one. So
 * each block of elements goes through two small loops: widen and operate into a float32 block on the
 * heap, then narrow that block into dst. The block stays in L1 cache.
 */
final class VectorF16Kernels {
    private VectorF16Kernels() {}

    /** Elements per block: 16 KiB of float32, a multiple of every vector length. */
    private static final int BLOCK = 4096;
    private static final long BYTES = 2;
    /**
     * Each thread's block, made once: a float16 allreduce calls this for every received chunk, and a
     * fresh 16 KiB array per chunk would be most of what the whole data path allocates. Per thread,
     * so two threads reducing at once never share one.
     */
    private static final ThreadLocal<float[]> BLOCKS = ThreadLocal.withInitial(() -> new float[BLOCK]);

    static long apply(ReduceOp op, MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long end = HalfLanes.loopBound(count);
        if (end == 0) return 0;
        float[] block = BLOCKS.get();
        for (long start = 0; start < end; start += BLOCK) {
            int n = (int) Math.min(BLOCK, end - start);
            switch (op) {
                case SUM, AVG -> widenSum(a, aOff, b, bOff, start, n, block);
                case PROD -> widenProd(a, aOff, b, bOff, start, n, block);
                case MIN -> widenMin(a, aOff, b, bOff, start, n, block);
                case MAX -> widenMax(a, aOff, b, bOff, start, n, block);
            }
            narrow(block, n, dst, dOff, start);
        }
        return end;
    }

    static long divideBy(MemorySegment seg, long count, int n) {
        long end = HalfLanes.loopBound(count);
        if (end == 0) return 0;
        float[] block = BLOCKS.get();
        for (long start = 0; start < end; start += BLOCK) {
            int len = (int) Math.min(BLOCK, end - start);
            widenDivide(seg, n, start, len, block);
            narrow(block, len, seg, 0, start);
        }
        return end;
    }

    private static void widenSum(MemorySegment a, long aOff, MemorySegment b, long bOff, long start, int n, float[] block) {
        for (int i = 0; i < n; i += STEP) {
            long o = (start + i) * BYTES;
            f16ToFloat(loadBits(a, aOff + o)).add(f16ToFloat(loadBits(b, bOff + o))).intoArray(block, i);
        }
    }

    private static void widenProd(MemorySegment a, long aOff, MemorySegment b, long bOff, long start, int n, float[] block) {
        for (int i = 0; i < n; i += STEP) {
            long o = (start + i) * BYTES;
            f16ToFloat(loadBits(a, aOff + o)).mul(f16ToFloat(loadBits(b, bOff + o))).intoArray(block, i);
        }
    }

    private static void widenMin(MemorySegment a, long aOff, MemorySegment b, long bOff, long start, int n, float[] block) {
        for (int i = 0; i < n; i += STEP) {
            long o = (start + i) * BYTES;
            f16ToFloat(loadBits(a, aOff + o)).min(f16ToFloat(loadBits(b, bOff + o))).intoArray(block, i);
        }
    }

    private static void widenMax(MemorySegment a, long aOff, MemorySegment b, long bOff, long start, int n, float[] block) {
        for (int i = 0; i < n; i += STEP) {
            long o = (start + i) * BYTES;
            f16ToFloat(loadBits(a, aOff + o)).max(f16ToFloat(loadBits(b, bOff + o))).intoArray(block, i);
        }
    }

    private static void widenDivide(MemorySegment seg, int divisor, long start, int n, float[] block) {
        float d = divisor;
        for (int i = 0; i < n; i += STEP) {
            f16ToFloat(loadBits(seg, (start + i) * BYTES)).div(d).intoArray(block, i);
        }
    }

    private static void narrow(float[] block, int n, MemorySegment dst, long dOff, long start) {
        for (int i = 0; i < n; i += STEP) {
            storeBits(toF16(FloatVector.fromArray(F, block, i)), dst, dOff + (start + i) * BYTES);
        }
    }
}
