package dev.jccl.ddp;

/**
 * Dynamic loss scaling for half-precision gradients: the loss (and so every gradient) is multiplied by
 * {@link #scale()} so that small gradients survive narrowing; a step whose gradients overflow is
 * skipped and the scale backs off; after {@code growthInterval} clean steps in a row it grows again.
 * Every rank sees the same overflow verdict, so every rank's scale stays the same.
 */
public final class LossScaler {
    private final float growthFactor;
    private final float backoffFactor;
    private final int growthInterval;
    private final float minScale;
    private float scale;
    private int cleanSteps;

    /**
     * @param initialScale   starting scale, e.g. 65536
     * @param growthFactor   multiplies the scale after growthInterval clean steps, e.g. 2
     * @param backoffFactor  multiplies the scale after an overflow, e.g. 0.5
     * @param growthInterval clean steps before growing, e.g. 2000
     */
    public LossScaler(float initialScale, float growthFactor, float backoffFactor, int growthInterval) {
        if (!(initialScale > 0) || !Float.isFinite(initialScale)) {
            throw new IllegalArgumentException("initial loss scale must be positive and finite, got " + initialScale);
        }
        if (!(growthFactor >= 1)) throw new IllegalArgumentException("growth factor must be >= 1, got " + growthFactor);
        if (!(backoffFactor > 0 && backoffFactor < 1)) throw new IllegalArgumentException("backoff factor must be in (0, 1), got " + backoffFactor);
        if (growthInterval < 1) throw new IllegalArgumentException("growth interval must be >= 1, got " + growthInterval);
        this.scale = initialScale;
        this.growthFactor = growthFactor;
        this.backoffFactor = backoffFactor;
        this.growthInterval = growthInterval;
        this.minScale = Float.MIN_NORMAL;
    }

    /** The usual defaults: 2^16, x2 every 2000 clean steps, x0.5 on overflow. */
    public static LossScaler defaults() {
        return new LossScaler(65536f, 2f, 0.5f, 2000);
    }

    public float scale() {
        return scale;
    }

    /** Records one synchronized step; returns true when it must be skipped. */
    boolean update(boolean overflow) {
        if (overflow) {
            scale = Math.max(minScale, scale * backoffFactor);
            cleanSteps = 0;
            return true;
        }
        if (++cleanSteps >= growthInterval) {
            float grown = scale * growthFactor;
            if (Float.isFinite(grown)) scale = grown;
            cleanSteps = 0;
        }
        return false;
    }
}
