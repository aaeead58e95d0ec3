package dev.jccl.cli.train;

/**
 * The demo's network, data and optimizer settings, shared by the distributed run and the
 * single-process reference so both start from the same bits.
 *
 * @param widths input, hidden..., classes
 */
public record ModelSpec(int[] widths, long seed, float lr, float momentum) {
    public static ModelSpec demo() {
        return new ModelSpec(new int[] {32, 512, 1024, 512, 8}, 42L, 0.02f, 0.9f);
    }

    /** Blobs per class and their spread: chosen so the classes overlap enough that accuracy climbs over hundreds of steps. */
    static final int BLOBS_PER_CLASS = 6;
    static final float BLOB_SPREAD = 1.6f;

    public BlobMixture data() {
        return new BlobMixture(widths[0], widths[widths.length - 1], BLOBS_PER_CLASS, BLOB_SPREAD, seed);
    }

    public Mlp model(int maxBatch) {
        return new Mlp(widths, seed, maxBatch);
    }

    /** Global index of the first sample of {@code step}'s batch (evaluation samples come from far away). */
    public static long firstSample(int step, int globalBatch) {
        return (long) step * globalBatch;
    }

    /** Where the fixed evaluation set starts: far from any training sample. */
    public static final long EVAL_FIRST = 1L << 40;
}
