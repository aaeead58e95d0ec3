package dev.jccl.cli.perf.coll;

import dev.jccl.BFloat16;
import dev.jccl.DataType;
import dev.jccl.Half;
import dev.jccl.ReduceOp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The known pattern `-c 1` checks against. Every input element is one of -2, -1, 1, 2 (1, 2 for
 * unsigned types), a function of (rank, element index) alone, so each rank can work out every other
 * rank's input and the exact expected output: sums, products (|x| ≤ 2^8), minima and maxima of such
 * values are exact in every type, including fp16 and bf16, whatever order the algorithm reduces in.
 */
final class CollPattern {
    private static final int[] SIGNED = {-2, -1, 1, 2};
    private static final int[] UNSIGNED = {1, 2, 1, 2};

    private CollPattern() {}

    static long value(DataType t, int rank, long index) {
        int k = (int) Math.floorMod(rank * 7L + index * 3L, 4L);
        return t == DataType.UINT8 ? UNSIGNED[k] : SIGNED[k];
    }

    /** Writes the pattern of {@code rank} into {@code elems} elements, numbered from {@code firstIndex}. */
    static void fill(DataType t, MemorySegment seg, long elems, int rank, long firstIndex) {
        for (long i = 0; i < elems; i++) writeBits(t, seg, i, encode(t, value(t, rank, firstIndex + i)));
    }

    /** The exact reduction over ranks 0..n-1 of element {@code index}, as the type's bits. */
    static long reduced(DataType t, ReduceOp op, int n, long index) {
        long acc = value(t, 0, index);
        for (int r = 1; r < n; r++) {
            long v = value(t, r, index);
            acc = switch (op) {
                case SUM, AVG -> acc + v;
                case PROD -> acc * v;
                case MIN -> Math.min(acc, v);
                case MAX -> Math.max(acc, v);
            };
        }
        if (op != ReduceOp.AVG) return encode(t, acc);
        return switch (t) {
            case FLOAT64 -> Double.doubleToRawLongBits((double) acc / n);
            case FLOAT32 -> Float.floatToRawIntBits((float) acc / n) & 0xFFFFFFFFL;
            case FLOAT16 -> Half.fromFloat((float) acc / n) & 0xFFFFL;
            case BFLOAT16 -> BFloat16.fromFloat((float) acc / n) & 0xFFFFL;
            // Integer AVG divides the wrapped sum, truncating toward zero (unsigned for uint8).
            case INT8 -> (byte) ((byte) acc / n) & 0xFFL;
            case UINT8 -> ((acc & 0xFF) / n) & 0xFFL;
            case INT32 -> ((int) acc / n) & 0xFFFFFFFFL;
            case INT64 -> acc / n;
        };
    }

    /** A small integer as the bits of type {@code t}, wrapping integers as C does. */
    static long encode(DataType t, long v) {
        return switch (t) {
            case FLOAT64 -> Double.doubleToRawLongBits(v);
            case FLOAT32 -> Float.floatToRawIntBits(v) & 0xFFFFFFFFL;
            case FLOAT16 -> Half.fromFloat(v) & 0xFFFFL;
            case BFLOAT16 -> BFloat16.fromFloat(v) & 0xFFFFL;
            case INT8, UINT8 -> v & 0xFFL;
            case INT32 -> v & 0xFFFFFFFFL;
            case INT64 -> v;
        };
    }

    static long readBits(DataType t, MemorySegment seg, long i) {
        return switch (t.byteSize()) {
            case 1 -> seg.get(ValueLayout.JAVA_BYTE, i) & 0xFFL;
            case 2 -> seg.getAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i) & 0xFFFFL;
            case 4 -> seg.getAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i) & 0xFFFFFFFFL;
            default -> seg.getAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i);
        };
    }

    static void writeBits(DataType t, MemorySegment seg, long i, long bits) {
        switch (t.byteSize()) {
            case 1 -> seg.set(ValueLayout.JAVA_BYTE, i, (byte) bits);
            case 2 -> seg.setAtIndex(ValueLayout.JAVA_SHORT_UNALIGNED, i, (short) bits);
            case 4 -> seg.setAtIndex(ValueLayout.JAVA_INT_UNALIGNED, i, (int) bits);
            default -> seg.setAtIndex(ValueLayout.JAVA_LONG_UNALIGNED, i, bits);
        }
    }
}
