package dev.jccl.cli.train;

/**
 * Stochastic gradient descent with momentum: {@code v = μ·v + g; p -= lr·v}, the learning rate ramped
 * up linearly over the first {@link #WARMUP_STEPS} steps (large early gradients of a fresh network
 * would otherwise throw it far off). Works on element ranges so that, when gradients are sharded,
 * each rank updates only the elements it owns.
 */
public final class Sgd {
    static final int WARMUP_STEPS = 20;
    private final float lr;
    private final float momentum;
    private final float[] velocity;

    public Sgd(int parameterCount, float lr, float momentum) {
        if (!(lr > 0)) throw new IllegalArgumentException("learning rate must be positive, got " + lr);
        if (!(momentum >= 0 && momentum < 1)) throw new IllegalArgumentException("momentum must be in [0, 1), got " + momentum);
        this.lr = lr;
        this.momentum = momentum;
        this.velocity = new float[parameterCount];
    }

    /** Updates elements [from, to) of the flat parameter array at optimizer step {@code step} (from 0). */
    public void step(int step, float[] params, float[] grads, int from, int to) {
        float rate = lr * Math.min(1f, (step + 1) / (float) WARMUP_STEPS);
        for (int i = from; i < to; i++) {
            float v = momentum * velocity[i] + grads[i];
            velocity[i] = v;
            params[i] -= rate * v;
        }
    }
}
