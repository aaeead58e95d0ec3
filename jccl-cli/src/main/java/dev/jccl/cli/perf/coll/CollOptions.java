package dev.jccl.cli.perf.coll;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;

import java.util.ArrayList;
import java.util.List;

/**
 * One collective perf run, with nccl-tests' flags: sizes from {@code minBytes} to {@code maxBytes}
 * multiplied by {@code factor}, at least {@code iters} timed and {@code warmup} untimed calls per size,
 * {@code check} to verify results against the known pattern before timing. Before the first size,
 * {@code jitWarmupNs} of untimed calls let the JIT compile the data path (a cold JVM is hundreds of
 * times slower than a warm one, and nccl-tests' few warm-up calls per size do not cover that).
 * {@code blocking} awaits every call before issuing the next (nccl-tests' {@code -z 1}), the way
 * a blocking MPI call is timed. With {@code bytesPerSize} above 0, a size runs more than {@code iters}
 * calls, up to {@value #MAX_SCALED_ITERS}, until it has moved that many bytes: small sizes need many
 * calls before one descheduled rank stops dominating the mean.
 *
 * <p>Timed calls run in {@code batches} batches of equal length, each about {@code batchNs} long
 * (the ranks agree on the calls per batch from the last untimed batch's time per call), after
 * untimed batches that wait for the JIT and size the timed ones;
 * the printed time is the median over batches of the time per call. {@code stats} adds the mean and
 * the p50/p99 of single calls to each row.
 */
public record CollOptions(CollTest test, long minBytes, long maxBytes, long factor, int iters, int warmup,
                          boolean check, ReduceOp op, DataType type, int root, boolean json, long jitWarmupNs, boolean blocking,
                          long bytesPerSize, long batchNs, int batches, boolean stats) {
    static final int MAX_SCALED_ITERS = 20_000;
    /** The defaults of {@code --batch-time} and {@code --batches}. */
    public static final long DEFAULT_BATCH_NS = 5_000_000L;
    public static final int DEFAULT_BATCHES = 10;
    /** Calls per batch at most: the per-call times of a size are held in memory. */
    static final int MAX_CALLS_PER_BATCH = 20_000;

    /** Default batches, no per-call statistics. */
    public CollOptions(CollTest test, long minBytes, long maxBytes, long factor, int iters, int warmup,
                       boolean check, ReduceOp op, DataType type, int root, boolean json, long jitWarmupNs, boolean blocking,
                       long bytesPerSize) {
        this(test, minBytes, maxBytes, factor, iters, warmup, check, op, type, root, json, jitWarmupNs, blocking, bytesPerSize,
                DEFAULT_BATCH_NS, DEFAULT_BATCHES, false);
    }

    public CollOptions {
        if (batchNs <= 0) throw new IllegalArgumentException("--batch-time must be > 0");
        if (batches < 1) throw new IllegalArgumentException("--batches must be >= 1, got " + batches);
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

    /** The same run without result checks (for untimed rounds). */
    CollOptions withoutCheck() {
        return new CollOptions(test, minBytes, maxBytes, factor, iters, warmup, false, op, type, root, json, jitWarmupNs, blocking,
                bytesPerSize, batchNs, batches, stats);
    }

    /**
     * Calls per batch for a size whose calls took {@code perCallNs} each in warm-up (the slowest
     * rank's figure, so every rank gets the same answer): enough to fill {@code batchNs}, and enough
     * that all batches together time at least {@link #iters(long)} calls.
     */
    int callsPerBatch(long bytes, long perCallNs) {
        long byTime = batchNs / Math.max(1, perCallNs);
        long byCount = (iters(bytes) + batches - 1) / batches;
        return (int) Math.max(1, Math.min(MAX_CALLS_PER_BATCH, Math.max(byTime, byCount)));
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
