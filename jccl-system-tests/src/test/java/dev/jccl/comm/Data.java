package dev.jccl.comm;

import dev.jccl.BFloat16;
import dev.jccl.DataType;
import dev.jccl.Half;
import dev.jccl.ReduceOp;
import dev.jccl.reduce.ReduceKernels;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;

/**
 * Test data every rank can recompute for every other rank. "Exact" data holds small integers in
 * every type, so sums, products, minima and maxima over up to 8 ranks are exact in every type and
 * the reference does not depend on the order of reduction; "random" floats do depend on it and
 * are checked for bit-identity across ranks and against a bound instead.
 */
final class Data {
    private Data() {}

    static final ValueLayout.OfShort SHORT = ValueLayout.JAVA_SHORT_UNALIGNED;

    static MemorySegment alloc(long bytes) {
        return Arena.ofAuto().allocate(Math.max(1, bytes), 64);
    }

    /** Element i of rank r's input, as a small integer: in [-4, 4] (PROD: [-2, 2]); unsigned types non-negative. */
    static long exact(int rank, long i, int salt, ReduceOp op, DataType type) {
        long h = (i * 0x9E3779B1L + rank * 0x85EBCA77L + salt * 0xC2B2AE3DL) >>> 7;
        long v = op == ReduceOp.PROD ? h % 5 - 2 : h % 9 - 4;
        return type == DataType.UINT8 ? Math.abs(v) : v;
    }

    static MemorySegment exactInput(DataType type, long count, int rank, int salt, ReduceOp op) {
        MemorySegment s = alloc(type.bytes(count));
        for (long i = 0; i < count; i++) set(type, s, i, exact(rank, i, salt, op, type));
        return s;
    }

    static void set(DataType type, MemorySegment s, long i, long v) {
        switch (type) {
            case FLOAT32 -> s.setAtIndex(ValueLayout.JAVA_FLOAT, i, v);
            case FLOAT64 -> s.setAtIndex(ValueLayout.JAVA_DOUBLE, i, v);
            case FLOAT16 -> s.setAtIndex(SHORT, i, Half.fromFloat(v));
            case BFLOAT16 -> s.setAtIndex(SHORT, i, BFloat16.fromFloat(v));
            case INT8, UINT8 -> s.set(ValueLayout.JAVA_BYTE, i, (byte) v);
            case INT32 -> s.setAtIndex(ValueLayout.JAVA_INT, i, (int) v);
            case INT64 -> s.setAtIndex(ValueLayout.JAVA_LONG, i, v);
        }
    }

    /** Random floats in [-1, 1), different per rank and salt. */
    static MemorySegment randomFloats(long count, int rank, int salt) {
        Random r = new Random(rank * 1_000_003L + salt);
        MemorySegment s = alloc(4 * count);
        for (long i = 0; i < count; i++) s.setAtIndex(ValueLayout.JAVA_FLOAT, i, r.nextFloat() * 2 - 1);
        return s;
    }

    /** The reduction of {@code inputs[r]} over r, element by element, from {@code offset}, with the reference kernels. */
    static MemorySegment reduce(DataType type, ReduceOp op, MemorySegment[] inputs, long offsetElems, long count) {
        long bytes = type.bytes(count);
        long off = type.bytes(offsetElems);
        MemorySegment acc = alloc(bytes);
        MemorySegment.copy(inputs[0], off, acc, 0, bytes);
        ReduceOp with = op == ReduceOp.AVG ? ReduceOp.SUM : op;
        for (int r = 1; r < inputs.length; r++) {
            ReduceKernels.scalar().reduce(type, with, acc.asSlice(0, bytes), inputs[r].asSlice(off, bytes), count);
        }
        if (op == ReduceOp.AVG && inputs.length > 1) ReduceKernels.scalar().finishAvg(type, acc.asSlice(0, bytes), count, inputs.length);
        return acc.asSlice(0, bytes);
    }

    /** Byte index of the first difference of a and b over {@code bytes}, or -1. */
    static long firstDifference(MemorySegment a, MemorySegment b, long bytes) {
        return a.asSlice(0, bytes).mismatch(b.asSlice(0, bytes));
    }

    static long crc(MemorySegment s, long bytes) {
        java.util.zip.CRC32C c = new java.util.zip.CRC32C();
        c.update(s.asSlice(0, bytes).asByteBuffer());
        return c.getValue();
    }
}
