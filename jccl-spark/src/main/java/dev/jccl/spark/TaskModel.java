package dev.jccl.spark;

import dev.jccl.ddp.DdpOptions;
import org.apache.spark.sql.Row;

import java.io.Serializable;
import java.util.List;
import java.util.function.Consumer;

/**
 * One task's replica of the model that {@link DataParallelTraining} trains. Made on the executor by
 * its {@link Factory}; every replica starts from task 0's parameters, which the training helper
 * broadcasts, so replicas need not be initialised alike. Used by one thread.
 */
public interface TaskModel extends AutoCloseable {
    /** Makes a replica on the executor; it is serialized with the Spark job. */
    @FunctionalInterface
    interface Factory extends Serializable {
        TaskModel create();
    }

    /**
     * Registers every parameter and its gradient buffer, as named float32 native views, in forward
     * order ({@link DdpOptions#param}); buckets fill in reverse order, as backward finishes them.
     */
    void registerParameters(DdpOptions ddp);

    /**
     * Forward and backward over {@code batch}: adds the gradient of (mean loss x {@code lossScale}) to
     * the gradient buffers, calling {@code gradReady} with a parameter's name as soon as its gradient
     * is final (so its bucket can leave while backward goes on). Returns the mean loss.
     */
    float forwardBackward(List<Row> batch, float lossScale, Consumer<String> gradReady);

    /** Applies one optimizer update with the averaged gradients of global step {@code step}. */
    void optimizerStep(int step);

    /** A copy of all parameters, flat, in registration order: what the task reports and checksums. */
    float[] parameters();

    /** Called on a task whose training failed (its own error or a peer's), before the task fails. */
    default void failed(Throwable cause) {}

    @Override
    default void close() {}
}
