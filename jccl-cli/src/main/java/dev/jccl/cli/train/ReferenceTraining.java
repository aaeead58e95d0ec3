package dev.jccl.cli.train;

import dev.jccl.trace.Timeline;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The same training in one process on the whole global batch at once: what data parallelism must
 * reproduce up to float rounding. Clipping uses the norm of the full-batch gradient.
 */
public final class ReferenceTraining {
    private ReferenceTraining() {}

    /** Trains from the same initial parameters for {@code settings.steps()} steps; returns the final parameters. */
    public static float[] run(ModelSpec spec, TrainSettings settings) {
        return run(spec, settings, new int[] {settings.steps()}).getLast();
    }

    /** Trains up to the largest of {@code afterSteps}; returns the parameters after each of those step counts. */
    public static List<float[]> run(ModelSpec spec, TrainSettings settings, int[] afterSteps) {
        List<float[]> snapshots = new ArrayList<>();
        int last = Arrays.stream(afterSteps).max().orElse(0);
        int global = settings.globalBatch();
        Mlp model = spec.model(global);
        BlobMixture data = spec.data();
        Sgd sgd = new Sgd(model.parameterCount(), spec.lr(), spec.momentum());
        float[] x = new float[global * model.inputs()];
        int[] y = new int[global];
        for (int step = 0; step < last; step++) {
            data.fill(settings.firstSample(step, 0, 0), global, x, y);
            model.forward(x, y, global, Timeline.DISABLED);
            model.backward(y, global, 1f, name -> { }, Timeline.DISABLED);
            if (settings.clipNorm() > 0) clip(model.grads(), settings.clipNorm());
            sgd.step(step, model.params(), model.grads(), 0, model.parameterCount());
            model.zeroGrad();
            for (int k : afterSteps) if (k == step + 1) snapshots.add(model.params().clone());
        }
        return snapshots;
    }

    static void clip(float[] g, double maxNorm) {
        double s = 0;
        for (float v : g) s += (double) v * v;
        double norm = Math.sqrt(s);
        if (norm > maxNorm) {
            float coef = (float) (maxNorm / (norm + 1e-6));
            for (int i = 0; i < g.length; i++) g[i] *= coef;
        }
    }
}
