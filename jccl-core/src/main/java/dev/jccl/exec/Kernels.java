package dev.jccl.exec;

import dev.jccl.reduce.ReduceKernels;

/**
 * The reduction kernels operations run with, chosen once per communicator from JCCL_REDUCE_KERNEL
 * ("vector", falling back to "scalar" when the Vector API module is not loaded, or "scalar").
 * The runtime holds this and never the kernels themselves, so only the executor calls into
 * {@code dev.jccl.reduce}.
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

    ReduceKernels impl() {
        return impl;
    }
}
