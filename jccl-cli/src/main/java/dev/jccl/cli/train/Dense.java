package dev.jccl.cli.train;

/**
 * The three matrix products of a fully connected layer, on row-major float arrays. The weight is
 * stored input-major ({@code w[i * out + o]}), so every inner loop is an axpy over contiguous memory
 * ({@code y[o] += a * w[o]}), which the JIT turns into vector instructions; the input gradient uses a
 * transposed copy of the weight for the same reason. Loops run in a fixed order, so results are
 * bit-for-bit reproducible.
 */
final class Dense {
    /** Rows of the batch processed together, so a block of weight rows is reused from cache. */
    private static final int IN_BLOCK = 64;

    private Dense() {}

    /** {@code y[n][:] = b + x[n][:] · W} for n in [0, batch). */
    static void forward(float[] x, int in, float[] w, int wOff, float[] bias, int bOff, float[] y, int out, int batch) {
        for (int n = 0; n < batch; n++) System.arraycopy(bias, bOff, y, n * out, out);
        for (int i0 = 0; i0 < in; i0 += IN_BLOCK) {
            int i1 = Math.min(in, i0 + IN_BLOCK);
            for (int n = 0; n < batch; n++) {
                int yRow = n * out;
                for (int i = i0; i < i1; i++) {
                    float a = x[n * in + i];
                    if (a == 0f) continue; // after ReLU about half the inputs are zero
                    int wRow = wOff + i * out;
                    for (int o = 0; o < out; o++) y[yRow + o] += a * w[wRow + o];
                }
            }
        }
    }

    /** {@code dW += xᵀ · dy} and {@code db += Σ_n dy[n]}, accumulating into the gradient buffers. */
    static void backwardWeights(float[] x, int in, float[] dy, int out, int batch, float[] g, int wOff, int bOff) {
        for (int n = 0; n < batch; n++) {
            int dyRow = n * out;
            for (int o = 0; o < out; o++) g[bOff + o] += dy[dyRow + o];
        }
        for (int i0 = 0; i0 < in; i0 += IN_BLOCK) {
            int i1 = Math.min(in, i0 + IN_BLOCK);
            for (int n = 0; n < batch; n++) {
                int dyRow = n * out;
                for (int i = i0; i < i1; i++) {
                    float a = x[n * in + i];
                    if (a == 0f) continue;
                    int gRow = wOff + i * out;
                    for (int o = 0; o < out; o++) g[gRow + o] += a * dy[dyRow + o];
                }
            }
        }
    }

    /** {@code dx[n][:] = dy[n][:] · Wᵀ}, with {@code wt} the weight transposed ({@code wt[o * in + i]}). */
    static void backwardInput(float[] dy, int out, float[] wt, float[] dx, int in, int batch) {
        java.util.Arrays.fill(dx, 0, batch * in, 0f);
        for (int n = 0; n < batch; n++) {
            int dxRow = n * in;
            for (int o = 0; o < out; o++) {
                float a = dy[n * out + o];
                if (a == 0f) continue;
                int wtRow = o * in;
                for (int i = 0; i < in; i++) dx[dxRow + i] += a * wt[wtRow + i];
            }
        }
    }

    /** {@code wt[o * in + i] = w[wOff + i * out + o]}. */
    static void transpose(float[] w, int wOff, int in, int out, float[] wt) {
        for (int i = 0; i < in; i++) {
            int row = wOff + i * out;
            for (int o = 0; o < out; o++) wt[o * in + i] = w[row + o];
        }
    }
}
