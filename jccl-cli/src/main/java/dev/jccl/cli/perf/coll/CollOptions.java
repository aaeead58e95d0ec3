package dev.jccl.cli.perf.coll;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;

import java.util.ArrayList;
import java.util.List;

/**
 * One collective perf run, with nccl-tests' flags: sizes from {@code minBytes} to {@code maxBytes}
 * multiplied by {@code factor}, {@code iters} timed and {@code warmup} untimed calls per size,
 * {@code check} to verify results against the known pattern before timing. Before the first size,
 * {@code jitWarmupNs} of untimed calls let the JIT compile the data path (a cold JVM is hundreds of
 * times slower than a warm one, and nccl-tests' few warm-up calls per size do not cover that).
 * {@code blocking} awaits every call before issuing the next (nccl-tests' {@code -z 1}), the way
 * a blocking MPI call is timed. With {@code bytesPerSize} above 0, a size runs more than {@code iters}
 * calls, up to {@value #MAX_SCALED_ITERS}, until it has moved that many bytes: small sizes need many
 * calls before one descheduled rank stops dominating the mean.
 */
public record CollOptions(CollTest test, long minBytes, long maxBytes, long factor, int iters, int warmup,
                          boolean check, ReduceOp op, DataType type, int root, boolean json, long jitWarmupNs, boolean blocking,
                          long bytesPerSize) {
    static final int MAX_SCALED_ITERS = 20_000;

    public CollOptions {
        if (bytesPerSize < 0) throw new IllegalArgumentException("--bytes-per-size must be >= 0");
        if (jitWarmupNs < 0) throw new IllegalArgumentException("--jit-warmup must be >= 0");
        if (minBytes < 0 || maxBytes < minBytes) {
            throw new IllegalArgumentException("sizes must satisfy 0 <= -b <= -e, got -b " + minBytes + " -e " + maxBytes);
        }
        if (factor < 2) throw new IllegalArgumentException("-f must be >= 2, got " + factor);
        if (iters < 1 || warmup < 0) throw new IllegalArgumentException("-n must be >= 1 and -w >= 0");
        if (root < 0) throw new IllegalArgumentException("-r must be >= 0, got " + root);
    }

    /** Timed calls for a size of {@code bytes}. */
    int iters(long bytes) {
        if (bytesPerSize == 0) return iters;
        long scaled = bytesPerSize / Math.max(1, bytes);
        return (int) Math.max(iters, Math.min(MAX_SCALED_ITERS, scaled));
    }

    /** The sizes to run, in bytes, each rounded down to whole elements of every rank's block. */
    List<Long> sizes(int ranks) {
        List<Long> out = new ArrayList<>();
        long unit = (long) type.byteSize() * (test.blockPerRank() ? ranks : 1);
        for (long s = minBytes; s <= maxBytes; s = s == 0 ? 1 : s * factor) {
            long rounded = s / unit * unit;
            if (out.isEmpty() || out.getLast() != rounded) out.add(rounded);
            if (s > Long.MAX_VALUE / factor) break;
        }
        return out;
    }
}
