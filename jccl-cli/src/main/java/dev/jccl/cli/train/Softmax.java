package dev.jccl.cli.train;

/** Softmax cross-entropy on rows of logits, computed stably (the row maximum subtracted first). */
final class Softmax {
    private Softmax() {}

    /** Fills {@code probs} with row softmaxes; returns the mean of -log p[label]. */
    static float crossEntropy(float[] logits, int[] labels, int batch, int classes, float[] probs) {
        double loss = 0;
        for (int n = 0; n < batch; n++) {
            int row = n * classes;
            float max = Float.NEGATIVE_INFINITY;
            for (int c = 0; c < classes; c++) max = Math.max(max, logits[row + c]);
            double sum = 0;
            for (int c = 0; c < classes; c++) {
                float e = (float) Math.exp(logits[row + c] - max);
                probs[row + c] = e;
                sum += e;
            }
            for (int c = 0; c < classes; c++) probs[row + c] = (float) (probs[row + c] / sum);
            int y = labels[n];
            if (y < 0 || y >= classes) throw new IllegalArgumentException("label " + y + " of row " + n + " outside [0, " + classes + ")");
            loss -= Math.log(Math.max(probs[row + y], 1e-30f));
        }
        return (float) (loss / batch);
    }

    /** {@code d[n][c] = (p[n][c] - [c == label]) * scale}: the gradient of the scaled loss sum. */
    static void gradient(float[] probs, int[] labels, int batch, int classes, float scale, float[] d) {
        for (int n = 0; n < batch; n++) {
            int row = n * classes;
            for (int c = 0; c < classes; c++) d[row + c] = (probs[row + c] - (c == labels[n] ? 1f : 0f)) * scale;
        }
    }

    static int[] argmax(float[] probs, int batch, int classes) {
        int[] out = new int[batch];
        for (int n = 0; n < batch; n++) {
            int best = 0;
            for (int c = 1; c < classes; c++) if (probs[n * classes + c] > probs[n * classes + best]) best = c;
            out[n] = best;
        }
        return out;
    }
}
