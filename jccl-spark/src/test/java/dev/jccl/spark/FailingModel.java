package dev.jccl.spark;

import dev.jccl.cli.train.ModelSpec;
import dev.jccl.ddp.DdpOptions;
import dev.jccl.spark.demo.DemoMlpModel;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.Row;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The demo model, except that on one task it throws in the middle of training (none for a task
 * of -1); every task records why it failed, and steps are counted. The record is a static map: in {@code local[N]} every task runs in the test's JVM.
 */
final class FailingModel implements TaskModel {
    static final String MESSAGE = "injected failure in forward";
    static final Map<Integer, Throwable> causes = new ConcurrentHashMap<>();
    /** Optimizer steps taken, over all tasks. */
    static final AtomicInteger stepsDone = new AtomicInteger();

    private final DemoMlpModel model = new DemoMlpModel(ModelSpec.demo(), DataParallelTrainingTest.BATCH);
    private final int failingTask;
    private final int failingStep;
    private int step;

    FailingModel(int failingTask, int failingStep) {
        this.failingTask = failingTask;
        this.failingStep = failingStep;
    }

    @Override
    public void registerParameters(DdpOptions ddp) {
        model.registerParameters(ddp);
    }

    @Override
    public float forwardBackward(List<Row> batch, float lossScale, Consumer<String> gradReady) {
        if (TaskContext.getPartitionId() == failingTask && step == failingStep) throw new IllegalStateException(MESSAGE);
        return model.forwardBackward(batch, lossScale, gradReady);
    }

    @Override
    public void optimizerStep(int s) {
        model.optimizerStep(s);
        step = s + 1;
        stepsDone.incrementAndGet();
    }

    @Override
    public float[] parameters() {
        return model.parameters();
    }

    @Override
    public void failed(Throwable cause) {
        causes.put(TaskContext.getPartitionId(), cause);
    }

    /** The causes once {@code tasks} have recorded one; waits at most ten seconds for the slowest. */
    static Map<Integer, Throwable> awaitCauses(int tasks) {
        for (int i = 0; i < 100 && causes.size() < tasks; i++) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return Map.copyOf(causes);
    }
}
