package dev.jccl.reduce;

import dev.jccl.BFloat16;
import dev.jccl.DataType;
import dev.jccl.Half;
import dev.jccl.ReduceOp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The reference: one element at a time, written to be obviously right. The vector kernels must match
 * it bit for bit, and use it for the elements left over after their last full vector. Arguments are
 * checked by {@link ReduceKernels}.
 */
final class ScalarKernels {
    private ScalarKernels() {}

    // ValueLayout.JAVA_* constants use the native byte order; UNALIGNED because chunks may start anywhere.
    private static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;
    private static final ValueLayout.OfDouble F64 = ValueLayout.JAVA_DOUBLE_UNALIGNED;
    private static final ValueLayout.OfShort I16 = ValueLayout.JAVA_SHORT_UNALIGNED;
    private static final ValueLayout.OfByte I8 = ValueLayout.JAVA_BYTE;
    private static final ValueLayout.OfInt I32 = ValueLayout.JAVA_INT_UNALIGNED;
    private static final ValueLayout.OfLong I64 = ValueLayout.JAVA_LONG_UNALIGNED;

    /**
     * dst[i] = a[i] op b[i] for i in [from, to). One small loop method per type, so that the JIT
     * compiles and profiles each on its own instead of one large method seeing every type.
     */
    static void apply(DataType type, ReduceOp op, MemorySegment dst, long dOff, MemorySegment a, long aOff,
                      MemorySegment b, long bOff, long from, long to) {
        switch (type) {
            case FLOAT32 -> f32Loop(op, dst, dOff, a, aOff, b, bOff, from, to);
            case FLOAT64 -> f64Loop(op, dst, dOff, a, aOff, b, bOff, from, to);
            case FLOAT16 -> f16Loop(op, dst, dOff, a, aOff, b, bOff, from, to);
            case BFLOAT16 -> bf16Loop(op, dst, dOff, a, aOff, b, bOff, from, to);
            case INT8 -> i8Loop(op, dst, dOff, a, aOff, b, bOff, from, to);
            case UINT8 -> u8Loop(op, dst, dOff, a, aOff, b, bOff, from, to);
            case INT32 -> i32Loop(op, dst, dOff, a, aOff, b, bOff, from, to);
            case INT64 -> i64Loop(op, dst, dOff, a, aOff, b, bOff, from, to);
        }
    }

    /** seg[i] = seg[i] / n for i in [from, to): the last step of AVG (see the package doc). */
    static void finishAvg(DataType type, MemorySegment seg, long from, long to, int n) {
        switch (type) {
            case FLOAT32, FLOAT16, BFLOAT16 -> floatDivideBy(type, seg, from, to, n);
            case FLOAT64 -> { for (long o = from * 8; o < to * 8; o += 8) seg.set(F64, o, canonical(seg.get(F64, o) / n)); }
            case INT8 -> { for (long o = from; o < to; o++) seg.set(I8, o, (byte) (seg.get(I8, o) / n)); }
            case UINT8 -> { for (long o = from; o < to; o++) seg.set(I8, o, (byte) ((seg.get(I8, o) & 0xFF) / n)); }
            case INT32 -> { for (long o = from * 4; o < to * 4; o += 4) seg.set(I32, o, seg.get(I32, o) / n); }
            case INT64 -> { for (long o = from * 8; o < to * 8; o += 8) seg.set(I64, o, seg.get(I64, o) / n); }
        }
    }

    /** FLOAT32 and the half types divide in float32 by {@code (float) n}. */
    private static void floatDivideBy(DataType type, MemorySegment seg, long from, long to, int n) {
        float nf = n;
        for (long i = from; i < to; i++) {
            switch (type) {
                case FLOAT32 -> seg.set(F32, i * 4, canonical(seg.get(F32, i * 4) / nf));
                case FLOAT16 -> seg.set(I16, i * 2, Half.fromFloat(canonical(Half.toFloat(seg.get(I16, i * 2)) / nf)));
                default -> seg.set(I16, i * 2, BFloat16.fromFloat(canonical(BFloat16.toFloat(seg.get(I16, i * 2)) / nf)));
            }
        }
    }

    private static void f32Loop(ReduceOp op, MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long from, long to) {
        for (long o = from * 4; o < to * 4; o += 4) dst.set(F32, dOff + o, f32(op, a.get(F32, aOff + o), b.get(F32, bOff + o)));
    }

    private static void f64Loop(ReduceOp op, MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long from, long to) {
        for (long o = from * 8; o < to * 8; o += 8) dst.set(F64, dOff + o, f64(op, a.get(F64, aOff + o), b.get(F64, bOff + o)));
    }

    private static void f16Loop(ReduceOp op, MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long from, long to) {
        for (long o = from * 2; o < to * 2; o += 2) dst.set(I16, dOff + o, f16(op, a.get(I16, aOff + o), b.get(I16, bOff + o)));
    }

    private static void bf16Loop(ReduceOp op, MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long from, long to) {
        for (long o = from * 2; o < to * 2; o += 2) dst.set(I16, dOff + o, bf16(op, a.get(I16, aOff + o), b.get(I16, bOff + o)));
    }

    private static void i8Loop(ReduceOp op, MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long from, long to) {
        for (long o = from; o < to; o++) dst.set(I8, dOff + o, i8(op, a.get(I8, aOff + o), b.get(I8, bOff + o)));
    }

    private static void u8Loop(ReduceOp op, MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long from, long to) {
        for (long o = from; o < to; o++) dst.set(I8, dOff + o, u8(op, a.get(I8, aOff + o), b.get(I8, bOff + o)));
    }

    private static void i32Loop(ReduceOp op, MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long from, long to) {
        for (long o = from * 4; o < to * 4; o += 4) dst.set(I32, dOff + o, i32(op, a.get(I32, aOff + o), b.get(I32, bOff + o)));
    }

    private static void i64Loop(ReduceOp op, MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long from, long to) {
        for (long o = from * 8; o < to * 8; o += 8) dst.set(I64, dOff + o, i64(op, a.get(I64, aOff + o), b.get(I64, bOff + o)));
    }

    static float f32(ReduceOp op, float x, float y) {
        return canonical(switch (op) {
            case SUM, AVG -> x + y;
            case PROD -> x * y;
            case MIN -> Math.min(x, y);
            case MAX -> Math.max(x, y);
        });
    }

    static double f64(ReduceOp op, double x, double y) {
        return canonical(switch (op) {
            case SUM, AVG -> x + y;
            case PROD -> x * y;
            case MIN -> Math.min(x, y);
            case MAX -> Math.max(x, y);
        });
    }

    /** Widen both to float32, operate, round back once (see the package doc for why this is exact enough). */
    static short f16(ReduceOp op, short x, short y) {
        return Half.fromFloat(f32(op, Half.toFloat(x), Half.toFloat(y)));
    }

    static short bf16(ReduceOp op, short x, short y) {
        return BFloat16.fromFloat(f32(op, BFloat16.toFloat(x), BFloat16.toFloat(y)));
    }

    static byte i8(ReduceOp op, byte x, byte y) {
        return (byte) switch (op) {
            case SUM, AVG -> x + y;
            case PROD -> x * y;
            case MIN -> Math.min(x, y);
            case MAX -> Math.max(x, y);
        };
    }

    /** Sum and product mod 256 are the same bits signed or unsigned; only MIN/MAX read the bits unsigned. */
    static byte u8(ReduceOp op, byte x, byte y) {
        return switch (op) {
            case SUM, AVG, PROD -> i8(op, x, y);
            case MIN -> (byte) Math.min(x & 0xFF, y & 0xFF);
            case MAX -> (byte) Math.max(x & 0xFF, y & 0xFF);
        };
    }

    static int i32(ReduceOp op, int x, int y) {
        return switch (op) {
            case SUM, AVG -> x + y;
            case PROD -> x * y;
            case MIN -> Math.min(x, y);
            case MAX -> Math.max(x, y);
        };
    }

    static long i64(ReduceOp op, long x, long y) {
        return switch (op) {
            case SUM, AVG -> x + y;
            case PROD -> x * y;
            case MIN -> Math.min(x, y);
            case MAX -> Math.max(x, y);
        };
    }

    static float canonical(float r) {
        return r != r ? Float.NaN : r;
    }

    static double canonical(double r) {
        return r != r ? Double.NaN : r;
    }
}
