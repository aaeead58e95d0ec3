package dev.jccl.cli.train;

import dev.jccl.trace.Timeline;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * A multi-layer perceptron for classification: fully connected layers with ReLU between them and a
 * softmax cross-entropy loss on the last. All parameters live in one flat float array (and all
 * gradients in another), each layer's weight and bias a slice of it, which is what data parallelism
 * registers. Backward runs layer by layer from the last and reports each finished parameter, so
 * communication of the last layers can start while earlier layers still compute.
 *
 * <p>Gradients accumulate ({@code +=}) until {@link #zeroGrad()}. Not thread-safe.
 */
public final class Mlp {
    /** A parameter's slice of the flat arrays. */
    public record ParamSlice(String name, int offset, int length) {}

    /** Called as each parameter's gradient becomes final during backward. */
    @FunctionalInterface
    public interface GradHook {
        void ready(String paramName);
    }

    private final int[] widths;
    private final float[] params;
    private final float[] grads;
    private final int[] wOff;
    private final int[] bOff;
    private final List<ParamSlice> slices = new ArrayList<>();
    private final Activations acts;

    /** @param widths input features, hidden widths..., classes; e.g. {32, 512, 1024, 512, 8} */
    public Mlp(int[] widths, long seed, int maxBatch) {
        if (widths.length < 2) throw new IllegalArgumentException("need at least input and output widths");
        for (int w : widths) if (w < 1) throw new IllegalArgumentException("layer width must be positive, got " + w);
        this.widths = widths.clone();
        int layers = widths.length - 1;
        wOff = new int[layers];
        bOff = new int[layers];
        long total = 0;
        for (int l = 0; l < layers; l++) {
            wOff[l] = Math.toIntExact(total);
            total += (long) widths[l] * widths[l + 1];
            bOff[l] = Math.toIntExact(total);
            total += widths[l + 1];
            slices.add(new ParamSlice("fc" + (l + 1) + ".weight", wOff[l], widths[l] * widths[l + 1]));
            slices.add(new ParamSlice("fc" + (l + 1) + ".bias", bOff[l], widths[l + 1]));
        }
        params = new float[Math.toIntExact(total)];
        grads = new float[params.length];
        // He initialisation for ReLU layers, from one seed: every rank starts from the same bits.
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int l = 0; l < layers; l++) {
            double std = Math.sqrt(2.0 / widths[l]);
            for (int k = 0; k < widths[l] * widths[l + 1]; k++) params[wOff[l] + k] = (float) (rnd.nextGaussian() * std);
        }
        acts = new Activations(widths, maxBatch);
    }

    public int parameterCount() {
        return params.length;
    }

    public int inputs() {
        return widths[0];
    }

    public int classes() {
        return widths[widths.length - 1];
    }

    public int[] widths() {
        return widths.clone();
    }

    /** Parameters in registration (forward) order. */
    public List<ParamSlice> slices() {
        return List.copyOf(slices);
    }

    public float[] params() {
        return params;
    }

    public float[] grads() {
        return grads;
    }

    public MemorySegment paramView(ParamSlice s) {
        return MemorySegment.ofArray(params).asSlice((long) s.offset() * Float.BYTES, (long) s.length() * Float.BYTES);
    }

    public MemorySegment gradView(ParamSlice s) {
        return MemorySegment.ofArray(grads).asSlice((long) s.offset() * Float.BYTES, (long) s.length() * Float.BYTES);
    }

    public void zeroGrad() {
        java.util.Arrays.fill(grads, 0f);
    }

    /** Runs the batch forward; returns the mean cross-entropy. Keeps what backward needs. */
    public float forward(float[] x, int[] labels, int batch, Timeline timeline) {
        acts.check(batch, x, labels);
        System.arraycopy(x, 0, acts.in[0], 0, batch * widths[0]);
        int layers = widths.length - 1;
        for (int l = 0; l < layers; l++) {
            long t0 = Timeline.nowNs();
            Dense.forward(acts.in[l], widths[l], params, wOff[l], params, bOff[l], acts.out[l], widths[l + 1], batch);
            if (l < layers - 1) relu(acts.out[l], acts.in[l + 1], batch * widths[l + 1]);
            timeline.complete("forward", "fc" + (l + 1), t0, Timeline.nowNs());
        }
        return Softmax.crossEntropy(acts.out[layers - 1], labels, batch, classes(), acts.probs);
    }

    /**
     * Adds this batch's gradient of (mean loss x {@code lossScale}) to the gradient buffers, last
     * layer first, calling {@code hook} for a layer's weight and bias as soon as they are final.
     */
    public void backward(int[] labels, int batch, float lossScale, GradHook hook, Timeline timeline) {
        int layers = widths.length - 1;
        float[] dy = acts.dOut[layers - 1];
        Softmax.gradient(acts.probs, labels, batch, classes(), lossScale / batch, dy);
        for (int l = layers - 1; l >= 0; l--) {
            long t0 = Timeline.nowNs();
            int in = widths[l];
            int out = widths[l + 1];
            Dense.backwardWeights(acts.in[l], in, acts.dOut[l], out, batch, grads, wOff[l], bOff[l]);
            hook.ready("fc" + (l + 1) + ".weight");
            hook.ready("fc" + (l + 1) + ".bias");
            if (l > 0) {
                Dense.transpose(params, wOff[l], in, out, acts.wt);
                Dense.backwardInput(acts.dOut[l], out, acts.wt, acts.dOut[l - 1], in, batch);
                reluBackward(acts.in[l], acts.dOut[l - 1], batch * in);
            }
            timeline.complete("backward", "fc" + (l + 1), t0, Timeline.nowNs());
        }
    }

    /** Class predicted for each row of the last forward batch. */
    public int[] predictions(int batch) {
        return Softmax.argmax(acts.probs, batch, classes());
    }

    private static void relu(float[] src, float[] dst, int n) {
        for (int i = 0; i < n; i++) dst[i] = Math.max(0f, src[i]);
    }

    /** dL/dz = dL/da where the ReLU output a was positive, else 0. */
    private static void reluBackward(float[] activated, float[] grad, int n) {
        for (int i = 0; i < n; i++) if (activated[i] <= 0f) grad[i] = 0f;
    }

    /** Scratch per layer, sized once for the largest batch. */
    private static final class Activations {
        final float[][] in;
        final float[][] out;
        final float[][] dOut;
        final float[] probs;
        final float[] wt;
        final int maxBatch;

        Activations(int[] widths, int maxBatch) {
            if (maxBatch < 1) throw new IllegalArgumentException("batch must be positive, got " + maxBatch);
            this.maxBatch = maxBatch;
            int layers = widths.length - 1;
            in = new float[layers][];
            out = new float[layers][];
            dOut = new float[layers][];
            int maxWeight = 0;
            for (int l = 0; l < layers; l++) {
                in[l] = new float[maxBatch * widths[l]];
                out[l] = new float[maxBatch * widths[l + 1]];
                dOut[l] = new float[maxBatch * widths[l + 1]];
                maxWeight = Math.max(maxWeight, widths[l] * widths[l + 1]);
            }
            probs = new float[maxBatch * widths[layers]];
            wt = new float[maxWeight];
        }

        void check(int batch, float[] x, int[] labels) {
            if (batch < 1 || batch > maxBatch) throw new IllegalArgumentException("batch " + batch + " outside [1, " + maxBatch + "]");
            if (x.length < batch * in[0].length / maxBatch || labels.length < batch) {
                throw new IllegalArgumentException("batch of " + batch + " needs " + batch * (in[0].length / maxBatch)
                        + " inputs and " + batch + " labels, got " + x.length + " and " + labels.length);
            }
        }
    }
}
