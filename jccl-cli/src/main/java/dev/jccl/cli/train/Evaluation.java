package dev.jccl.cli.train;

import dev.jccl.trace.Timeline;

/** Loss and accuracy of a model on a fixed held-out set drawn from the same distribution. */
public record Evaluation(float loss, double accuracy) {
    /** Size of the held-out set the demo evaluates on. */
    static final int SAMPLES = 1024;
    /** Rows evaluated per forward call. */
    static final int CHUNK = 256;

    public static Evaluation of(Mlp model, BlobMixture data, int samples) {
        float[] x = new float[CHUNK * model.inputs()];
        int[] y = new int[CHUNK];
        double loss = 0;
        long correct = 0;
        for (int first = 0; first < samples; first += CHUNK) {
            int n = Math.min(CHUNK, samples - first);
            data.fill(ModelSpec.EVAL_FIRST + first, n, x, y);
            loss += model.forward(x, y, n, Timeline.DISABLED) * n;
            int[] pred = model.predictions(n);
            for (int i = 0; i < n; i++) if (pred[i] == y[i]) correct++;
        }
        return new Evaluation((float) (loss / samples), (double) correct / samples);
    }
}
