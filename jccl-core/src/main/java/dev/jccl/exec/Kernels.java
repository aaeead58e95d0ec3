package dev.jccl.exec;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.reduce.ReduceKernels;

import java.lang.foreign.MemorySegment;

/**
 * The reduction kernels operations run with, chosen once per communicator from JCCL_REDUCE_KERNEL
 * ("vector", falling back to "scalar" when the Vector API module is not loaded, or "scalar").
 * The runtime holds this and never the kernels themselves, so only the executor calls into
 * {@code dev.jccl.reduce}.
 *
 * <p>Like all Java code the kernels are slow until the JIT has compiled them, the Vector API ones
 * especially (its generic path is one to two orders of magnitude slower); on a busy machine that
 * took thousands of calls here, so benchmarks must warm up.
 */
public final class Kernels {
    private final ReduceKernels impl;

    private Kernels(ReduceKernels impl) {
        this.impl = impl;
    }

    public static Kernels select(String name) {
        return new Kernels(ReduceKernels.select(name));
    }

    /** For the log: "vector, 512-bit lanes", "scalar", or why vector was not available. */
    public String description() {
        return impl.description();
    }

    /**
     * {@code dst[dstOffset + i] = a[aOffset + i] op b[bOffset + i]} (offsets in bytes), as
     * {@link ReduceKernels#reduce} does: offsets instead of slices, so a chunk allocates no views.
     */
    void reduce(DataType type, ReduceOp op, MemorySegment dst, long dstOffset, MemorySegment a, long aOffset,
                MemorySegment b, long bOffset, long count) {
        impl.reduce(type, op, dst, dstOffset, a, aOffset, b, bOffset, count);
    }

    /** The last step of AVG, as {@link ReduceKernels#finishAvg} does. */
    void finishAvg(DataType type, MemorySegment seg, long count, int contributions) {
        impl.finishAvg(type, seg, count, contributions);
    }
}
