package dev.jccl.spark.demo;

import dev.jccl.cli.train.Mlp;
import dev.jccl.cli.train.ModelSpec;
import dev.jccl.cli.train.Sgd;
import dev.jccl.ddp.DdpOptions;
import dev.jccl.spark.TaskModel;
import dev.jccl.trace.Timeline;
import org.apache.spark.sql.Row;

import java.util.List;
import java.util.function.Consumer;

/**
 * {@code jccl demo}'s MLP and SGD with momentum as a {@link TaskModel}, trained on rows of
 * {@link DemoRows#schema()}: the same network, initial parameters and optimizer as the demo and its
 * single-process reference, so a Spark run can be checked against both.
 */
public final class DemoMlpModel implements TaskModel {
    private final Mlp model;
    private final Sgd sgd;
    private final float[] x;
    private final int[] labels;

    public DemoMlpModel(ModelSpec spec, int maxBatch) {
        this.model = spec.model(maxBatch);
        this.sgd = new Sgd(model.parameterCount(), spec.lr(), spec.momentum());
        this.x = new float[maxBatch * model.inputs()];
        this.labels = new int[maxBatch];
    }

    /** Makes a replica of the demo's network on each task, for batches of up to {@code batchPerTask} rows. */
    public static TaskModel.Factory factory(int batchPerTask) {
        return () -> new DemoMlpModel(ModelSpec.demo(), batchPerTask);
    }

    @Override
    public void registerParameters(DdpOptions ddp) {
        for (Mlp.ParamSlice s : model.slices()) ddp.param(s.name(), model.paramView(s), model.gradView(s));
    }

    @Override
    public float forwardBackward(List<Row> batch, float lossScale, Consumer<String> gradReady) {
        int n = batch.size();
        int dims = model.inputs();
        for (int i = 0; i < n; i++) {
            Row row = batch.get(i);
            List<Float> features = row.getList(DemoRows.FEATURES);
            for (int d = 0; d < dims; d++) x[i * dims + d] = features.get(d);
            labels[i] = row.getInt(DemoRows.LABEL);
        }
        float loss = model.forward(x, labels, n, Timeline.DISABLED);
        model.backward(labels, n, lossScale, gradReady::accept, Timeline.DISABLED);
        return loss;
    }

    @Override
    public void optimizerStep(int step) {
        sgd.step(step, model.params(), model.grads(), 0, model.parameterCount());
    }

    @Override
    public float[] parameters() {
        return model.params().clone();
    }
}
