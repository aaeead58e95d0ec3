package dev.jccl.cli.train;

import dev.jccl.trace.Timeline;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
@Tag("unit")
class MlpGradientCheckTest {
    /** Backward against central finite differences of the loss, on a network small enough to probe every parameter. */
    @Test
    void backwardMatchesNumericalGradients() {
        int[] widths = {3, 5, 4, 3};
        int batch = 4;
        Mlp m = new Mlp(widths, 7, batch);
        BlobMixture data = new BlobMixture(3, 3, 2, 0.8f, 11);
        float[] x = new float[batch * 3];
        int[] y = new int[batch];
        data.fill(0, batch, x, y);
        // Biases start at zero; move them off zero so their gradients are probed in general position.
        for (Mlp.ParamSlice s : m.slices()) if (s.name().endsWith("bias")) for (int i = 0; i < s.length(); i++) m.params()[s.offset() + i] = 0.05f * (i + 1);
        m.forward(x, y, batch, Timeline.DISABLED);
        m.backward(y, batch, 1f, n -> { }, Timeline.DISABLED);
        float[] analytic = m.grads().clone();
        int checked = 0;
        for (int i = 0; i < m.parameterCount(); i++) {
            double coarse = numeric(m, x, y, batch, i, 1e-2f);
            double medium = numeric(m, x, y, batch, i, 3e-3f);
            double fine = numeric(m, x, y, batch, i, 1e-3f);
            // A ReLU input within eps of zero makes the difference quotient straddle the kink; the
            // step sizes then disagree, and that parameter says nothing about backward.
            double spread = Math.max(Math.abs(coarse - fine), Math.abs(medium - fine));
            if (spread > 2e-4 + 5e-4 * Math.abs(fine)) continue;
            assertEquals(fine, analytic[i], 2e-3 + 5e-3 * Math.abs(fine), "parameter " + i);
            checked++;
        }
        int total = 3 * 5 + 5 + 5 * 4 + 4 + 4 * 3 + 3;
        assertTrue(checked >= total * 3 / 4, checked + " of " + total + " parameters away from a kink");
    }

    private static double numeric(Mlp m, float[] x, int[] y, int batch, int i, float eps) {
        float keep = m.params()[i];
        m.params()[i] = keep + eps;
        double up = m.forward(x, y, batch, Timeline.DISABLED);
        m.params()[i] = keep - eps;
        double down = m.forward(x, y, batch, Timeline.DISABLED);
        m.params()[i] = keep;
        return (up - down) / (2 * eps);
    }

    @Test
    void gradientsAccumulateAndHooksFireLastLayerFirst() {
        Mlp m = new Mlp(new int[] {4, 6, 2}, 3, 2);
        float[] x = {1, 2, 3, 4, -1, 0.5f, 0, 2};
        int[] y = {0, 1};
        List<String> order = new ArrayList<>();
        m.forward(x, y, 2, Timeline.DISABLED);
        m.backward(y, 2, 1f, order::add, Timeline.DISABLED);
        assertEquals(List.of("fc2.weight", "fc2.bias", "fc1.weight", "fc1.bias"), order);
        float[] once = m.grads().clone();
        m.forward(x, y, 2, Timeline.DISABLED);
        m.backward(y, 2, 4f, n -> { }, Timeline.DISABLED);
        for (int i = 0; i < once.length; i++) assertEquals(5 * once[i], m.grads()[i], 1e-5f * Math.max(1, Math.abs(once[i])));
        m.zeroGrad();
        for (float g : m.grads()) assertEquals(0f, g);
    }

    @Test
    void badShapesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Mlp(new int[] {4}, 1, 2));
        assertThrows(IllegalArgumentException.class, () -> new Mlp(new int[] {4, 0, 2}, 1, 2));
        Mlp m = new Mlp(new int[] {4, 3, 2}, 1, 2);
        var e = assertThrows(IllegalArgumentException.class, () -> m.forward(new float[12], new int[3], 3, Timeline.DISABLED));
        assertTrue(e.getMessage().contains("3"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> m.forward(new float[8], new int[] {0, 7}, 2, Timeline.DISABLED));
    }

    @Test
    void theDataIsReproducibleAndSplitsByRank() {
        BlobMixture d = ModelSpec.demo().data();
        float[] whole = new float[8 * d.dims()];
        int[] wy = new int[8];
        d.fill(100, 8, whole, wy);
        float[] half = new float[4 * d.dims()];
        int[] hy = new int[4];
        d.fill(104, 4, half, hy);
        for (int i = 0; i < half.length; i++) assertEquals(whole[4 * d.dims() + i], half[i]);
        for (int i = 0; i < 4; i++) assertEquals(wy[4 + i], hy[i]);
    }
}
