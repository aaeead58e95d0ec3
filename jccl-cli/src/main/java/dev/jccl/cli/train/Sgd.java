package dev.jccl.cli.train;

/**
 * Stochastic gradient descent with momentum: {@code v = μ·v + g; p -= lr·v}. Works on element ranges
 * so that, when gradients are sharded, each rank updates only the elements it owns.
 */
public final class Sgd {
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

    /** Updates elements [from, to) of the flat parameter array. */
    public void step(float[] params, float[] grads, int from, int to) {
        for (int i = from; i < to; i++) {
            float v = momentum * velocity[i] + grads[i];
            velocity[i] = v;
            params[i] -= lr * v;
        }
    }
}
