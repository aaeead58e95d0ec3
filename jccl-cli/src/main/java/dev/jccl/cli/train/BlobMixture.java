package dev.jccl.cli.train;

import java.util.SplittableRandom;

/**
 * Synthetic data: a mixture of Gaussian blobs in {@code dims} dimensions, several blobs per class
 * placed at random, so each class is a union of separate regions and no linear boundary separates
 * the classes: the network has to learn a non-linear partition of space. Nothing is read from disk.
 *
 * <p>Sample {@code i} depends only on the seed and {@code i}, so every rank draws exactly its rows of
 * a global batch, and a single process drawing the whole batch sees the same numbers.
 */
public final class BlobMixture {
    private final int dims;
    private final int classes;
    private final int blobs;
    private final long seed;
    private final float[] centers; // blobs x dims
    private final float spread;

    public BlobMixture(int dims, int classes, int blobsPerClass, float spread, long seed) {
        if (dims < 2) throw new IllegalArgumentException("need at least 2 dimensions, got " + dims);
        if (classes < 2) throw new IllegalArgumentException("need at least 2 classes, got " + classes);
        if (blobsPerClass < 1) throw new IllegalArgumentException("need at least 1 blob per class, got " + blobsPerClass);
        this.dims = dims;
        this.classes = classes;
        this.blobs = classes * blobsPerClass;
        this.spread = spread;
        this.seed = seed;
        SplittableRandom rnd = new SplittableRandom(seed ^ 0x5EEDB10BL);
        centers = new float[blobs * dims];
        for (int k = 0; k < centers.length; k++) centers[k] = (float) rnd.nextGaussian();
    }

    public int dims() {
        return dims;
    }

    public int classes() {
        return classes;
    }

    /** Writes samples {@code first .. first+count-1} into rows of {@code x} and {@code labels}. */
    public void fill(long first, int count, float[] x, int[] labels) {
        for (int n = 0; n < count; n++) {
            SplittableRandom rnd = new SplittableRandom(seed * 0x9E3779B97F4A7C15L + first + n);
            int blob = rnd.nextInt(blobs);
            for (int d = 0; d < dims; d++) x[n * dims + d] = (float) (centers[blob * dims + d] + rnd.nextGaussian() * spread);
            labels[n] = blob % classes;
        }
    }
}
