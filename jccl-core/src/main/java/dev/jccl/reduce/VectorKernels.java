package dev.jccl.reduce;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import jdk.incubator.vector.FloatVector;

import java.lang.foreign.MemorySegment;

/**
 * Picks the vector loop for a (type, op) and lets the scalar reference finish the elements after the
 * last whole vector, so both kernels share one definition of every element's result. Loaded only when
 * the jdk.incubator.vector module is present (see {@link ReduceKernels}).
 */
final class VectorKernels {
    private VectorKernels() {}

    static String describe() {
        return "vector, " + FloatVector.SPECIES_PREFERRED.vectorBitSize() + "-bit lanes";
    }

    static void apply(DataType type, ReduceOp op, MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b, long bOff, long count) {
        long done = switch (type) {
            case FLOAT32 -> switch (op) {
                case SUM, AVG -> VectorFloatKernels.f32Sum(dst, dOff, a, aOff, b, bOff, count);
                case PROD -> VectorFloatKernels.f32Prod(dst, dOff, a, aOff, b, bOff, count);
                case MIN -> VectorFloatKernels.f32Min(dst, dOff, a, aOff, b, bOff, count);
                case MAX -> VectorFloatKernels.f32Max(dst, dOff, a, aOff, b, bOff, count);
            };
            case FLOAT64 -> switch (op) {
                case SUM, AVG -> VectorFloatKernels.f64Sum(dst, dOff, a, aOff, b, bOff, count);
                case PROD -> VectorFloatKernels.f64Prod(dst, dOff, a, aOff, b, bOff, count);
                case MIN -> VectorFloatKernels.f64Min(dst, dOff, a, aOff, b, bOff, count);
                case MAX -> VectorFloatKernels.f64Max(dst, dOff, a, aOff, b, bOff, count);
            };
            case FLOAT16 -> VectorF16Kernels.apply(op, dst, dOff, a, aOff, b, bOff, count);
            case BFLOAT16 -> switch (op) {
                case SUM, AVG -> VectorBf16Kernels.bf16Sum(dst, dOff, a, aOff, b, bOff, count);
                case PROD -> VectorBf16Kernels.bf16Prod(dst, dOff, a, aOff, b, bOff, count);
                case MIN -> VectorBf16Kernels.bf16Min(dst, dOff, a, aOff, b, bOff, count);
                case MAX -> VectorBf16Kernels.bf16Max(dst, dOff, a, aOff, b, bOff, count);
            };
            case INT8, UINT8 -> switch (op) {
                case SUM, AVG -> VectorByteKernels.sum(dst, dOff, a, aOff, b, bOff, count);
                case PROD -> VectorByteKernels.prod(dst, dOff, a, aOff, b, bOff, count);
                case MIN -> type == DataType.INT8
                        ? VectorByteKernels.i8Min(dst, dOff, a, aOff, b, bOff, count)
                        : VectorByteKernels.u8Min(dst, dOff, a, aOff, b, bOff, count);
                case MAX -> type == DataType.INT8
                        ? VectorByteKernels.i8Max(dst, dOff, a, aOff, b, bOff, count)
                        : VectorByteKernels.u8Max(dst, dOff, a, aOff, b, bOff, count);
            };
            case INT32 -> switch (op) {
                case SUM, AVG -> VectorIntKernels.i32Sum(dst, dOff, a, aOff, b, bOff, count);
                case PROD -> VectorIntKernels.i32Prod(dst, dOff, a, aOff, b, bOff, count);
                case MIN -> VectorIntKernels.i32Min(dst, dOff, a, aOff, b, bOff, count);
                case MAX -> VectorIntKernels.i32Max(dst, dOff, a, aOff, b, bOff, count);
            };
            case INT64 -> switch (op) {
                case SUM, AVG -> VectorIntKernels.i64Sum(dst, dOff, a, aOff, b, bOff, count);
                case PROD -> VectorIntKernels.i64Prod(dst, dOff, a, aOff, b, bOff, count);
                case MIN -> VectorIntKernels.i64Min(dst, dOff, a, aOff, b, bOff, count);
                case MAX -> VectorIntKernels.i64Max(dst, dOff, a, aOff, b, bOff, count);
            };
        };
        ScalarKernels.apply(type, op, dst, dOff, a, aOff, b, bOff, done, count);
    }

    static void finishAvg(DataType type, MemorySegment seg, long count, int n) {
        long done = switch (type) {
            case FLOAT32 -> VectorFloatKernels.f32DivideBy(seg, count, n);
            case FLOAT64 -> VectorFloatKernels.f64DivideBy(seg, count, n);
            case FLOAT16 -> VectorF16Kernels.divideBy(seg, count, n);
            case BFLOAT16 -> VectorBf16Kernels.bf16DivideBy(seg, count, n);
            // x86 has no SIMD integer divide, so the Vector API would divide lane by lane in Java, slower
            // than the scalar loop; and AVG finishes once per collective, not once per received chunk.
            case INT8, UINT8, INT32, INT64 -> 0;
        };
        ScalarKernels.finishAvg(type, seg, done, count, n);
    }
}
