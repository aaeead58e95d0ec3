package dev.jccl.reduce;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;

import java.lang.foreign.MemorySegment;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Entry point of the reduction kernels (semantics in the package doc). An instance is either the
 * vector kernels (jdk.incubator.vector) or the scalar reference; {@link #select} takes the value of
 * {@code JCCL_REDUCE_KERNEL}. Stateless and thread-safe; every call runs on the caller's thread and
 * returns when the whole range is done.
 *
 * <p>Segments must be native (Arena or mapped); see {@code KernelArgs} for the checks made on every call.
 */
public final class ReduceKernels {
    public enum Kind { SCALAR, VECTOR }

    private static final String VECTOR_MODULE = "jdk.incubator.vector";
    private static final ReduceKernels SCALAR = new ReduceKernels(Kind.SCALAR, "scalar");

    private final Kind kind;
    private final String description;

    private ReduceKernels(Kind kind, String description) {
        this.kind = kind;
        this.description = description;
    }

    /** The scalar reference kernels. */
    public static ReduceKernels scalar() {
        return SCALAR;
    }

    /** The vector kernels; fails when the JVM was started without {@code --add-modules jdk.incubator.vector}. */
    public static ReduceKernels vector() {
        vectorUnavailableReason().ifPresent(reason -> {
            throw new IllegalStateException("vector reduce kernels unavailable: " + reason);
        });
        return new ReduceKernels(Kind.VECTOR, VectorKernels.describe());
    }

    /**
     * "vector" or "scalar", as {@code JCCL_REDUCE_KERNEL} says. "vector" falls back to scalar when the
     * module is missing, and {@link #description()} then says why, so a caller can log the fallback.
     */
    public static ReduceKernels select(String name) {
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "scalar" -> SCALAR;
            case "vector" -> vectorUnavailableReason()
                    .map(reason -> new ReduceKernels(Kind.SCALAR, "scalar (vector requested: " + reason + ")"))
                    .orElseGet(ReduceKernels::vector);
            default -> throw new IllegalArgumentException("unknown reduce kernel '" + name + "'; expected vector or scalar");
        };
    }

    /** Why the vector kernels cannot run in this JVM, or empty when they can. */
    public static Optional<String> vectorUnavailableReason() {
        return ModuleLayer.boot().findModule(VECTOR_MODULE).isPresent() ? Optional.empty()
                : Optional.of(VECTOR_MODULE + " is not loaded; start java with --add-modules " + VECTOR_MODULE);
    }

    public Kind kind() {
        return kind;
    }

    /** For logs: "vector, 512-bit lanes", "scalar", or the fallback reason. */
    public String description() {
        return description;
    }

    /** In place: {@code dst[i] = dst[i] op src[i]} for i in [0, count). {@code src} may be {@code dst}. */
    public void reduce(DataType type, ReduceOp op, MemorySegment dst, MemorySegment src, long count) {
        long bytes = KernelArgs.bytes(type, count);
        KernelArgs.checkDestination(dst, 0, bytes);
        KernelArgs.checkSource(src, 0, "src", dst, 0, bytes);
        run(type, op, dst, 0, dst, 0, src, 0, count);
    }

    /**
     * Out of place: {@code dst[i] = a[i] op b[i]}, e.g. a received chunk reduced with the local input
     * into the output. Each source is either {@code dst} itself or disjoint from it.
     */
    public void reduce(DataType type, ReduceOp op, MemorySegment dst, MemorySegment a, MemorySegment b, long count) {
        reduce(type, op, dst, 0, a, 0, b, 0, count);
    }

    /**
     * Like {@link #reduce(DataType, ReduceOp, MemorySegment, MemorySegment, MemorySegment, long)} on
     * the ranges starting at the given byte offsets: {@code dst[dstOffset..] = a[aOffset..] op b[bOffset..]}.
     * Offsets rather than slices, so that a caller reducing chunk after chunk of larger buffers
     * allocates no views.
     */
    public void reduce(DataType type, ReduceOp op, MemorySegment dst, long dstOffset, MemorySegment a, long aOffset,
                       MemorySegment b, long bOffset, long count) {
        long bytes = KernelArgs.bytes(type, count);
        KernelArgs.checkDestination(dst, dstOffset, bytes);
        KernelArgs.checkSource(a, aOffset, "a", dst, dstOffset, bytes);
        KernelArgs.checkSource(b, bOffset, "b", dst, dstOffset, bytes);
        run(type, op, dst, dstOffset, a, aOffset, b, bOffset, count);
    }

    private void run(DataType type, ReduceOp op, MemorySegment dst, long dOff, MemorySegment a, long aOff, MemorySegment b,
                     long bOff, long count) {
        Objects.requireNonNull(op, "op");
        if (kind == Kind.VECTOR) VectorKernels.apply(type, op, dst, dOff, a, aOff, b, bOff, count);
        else ScalarKernels.apply(type, op, dst, dOff, a, aOff, b, bOff, 0, count);
    }

    /** The last step of AVG: {@code seg[i] = seg[i] / contributions}, rounded as the package doc says. */
    public void finishAvg(DataType type, MemorySegment seg, long count, int contributions) {
        if (contributions < 1) throw new IllegalArgumentException("finishAvg: contributions must be >= 1, got " + contributions);
        long bytes = KernelArgs.bytes(type, count);
        KernelArgs.checkDestination(seg, bytes);
        if (kind == Kind.VECTOR) VectorKernels.finishAvg(type, seg, count, contributions);
        else ScalarKernels.finishAvg(type, seg, 0, count, contributions);
    }

    @Override
    public String toString() {
        return "ReduceKernels[" + description + "]";
    }
}
