package dev.jccl.cli.perf;

import java.util.ArrayList;
import java.util.List;

/**
 * What to run: the test, the sizes, iterations per size, queue pairs, direction, provider.
 *
 * @param iterations messages per size; bandwidth runs cap the bytes per size at {@link #MAX_BYTES_PER_SIZE}
 */
public record PerfOptions(PerfTest test, List<Long> sizes, int iterations, int qps, boolean bidirectional,
                          int txDepth, String provider) {
    /** Keeps `-a` to 8 MiB from moving tens of gigabytes per size on a slow link. */
    static final long MAX_BYTES_PER_SIZE = 2L << 30;

    public PerfOptions {
        if (iterations < 1) throw new IllegalArgumentException("-n must be >= 1, got " + iterations);
        if (qps < 1) throw new IllegalArgumentException("-q must be >= 1, got " + qps);
        if (txDepth < 1) throw new IllegalArgumentException("--tx-depth must be >= 1, got " + txDepth);
        for (long s : sizes) {
            if (s < 0) throw new IllegalArgumentException("negative size " + s);
        }
        if (test.latency && bidirectional) throw new IllegalArgumentException("-b applies to bandwidth tests only");
        sizes = List.copyOf(sizes);
    }

    /** perftest's -a: every power of two from 2 B to 8 MiB. */
    public static List<Long> allSizes() {
        List<Long> out = new ArrayList<>();
        for (long s = 2; s <= 8L << 20; s <<= 1) out.add(s);
        return out;
    }

    long maxSize() {
        return sizes.stream().mapToLong(Long::longValue).max().orElse(8);
    }

    int iterationsFor(long size) {
        if (test.latency || size == 0) return iterations;
        return (int) Math.max(16, Math.min(iterations, MAX_BYTES_PER_SIZE / size));
    }
}
