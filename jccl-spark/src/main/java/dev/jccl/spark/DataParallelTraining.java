package dev.jccl.spark;

import dev.jccl.ddp.DdpOptions;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Data-parallel training on Spark executors: each partition of the rows is one task's shard, the
 * tasks form one barrier stage and one jccl communicator, and {@link dev.jccl.ddp.DistributedDataParallel}
 * averages their gradients every step, in buckets that overlap backward.
 *
 * <pre>{@code
 * TrainingResult r = DataParallelTraining.of(MyModel::new).steps(200).batchPerTask(16).fit(rows);
 * }</pre>
 *
 * <p>Step {@code s} of task {@code r} trains on rows {@code s*B .. s*B+B-1} of partition {@code r}
 * (B = batch per task), wrapping around a shard that runs out, so the global batch of a step is
 * those rows of every partition. Every partition must hold at least one batch. If a task fails, the
 * stage fails (every task with jccl's error naming the failed rank) and Spark retries it or fails
 * the job as for any barrier stage.
 */
public final class DataParallelTraining {
    private final TaskModel.Factory factory;
    private int steps = 100;
    private int batchPerTask = 16;
    private long bucketBytes = DdpOptions.DEFAULT_BUCKET_BYTES;
    private final Map<String, String> knobs = new LinkedHashMap<>();

    private DataParallelTraining(TaskModel.Factory factory) {
        this.factory = factory;
    }

    public static DataParallelTraining of(TaskModel.Factory factory) {
        return new DataParallelTraining(factory);
    }

    public DataParallelTraining steps(int n) {
        if (n < 1) throw new IllegalArgumentException("steps must be >= 1, got " + n);
        steps = n;
        return this;
    }

    public DataParallelTraining batchPerTask(int rows) {
        if (rows < 1) throw new IllegalArgumentException("batch per task must be >= 1, got " + rows);
        batchPerTask = rows;
        return this;
    }

    /** Gradient bucket limit (default 25 MiB, as the ddp helper's). */
    public DataParallelTraining bucketBytes(long bytes) {
        if (bytes < 1) throw new IllegalArgumentException("bucket bytes must be positive, got " + bytes);
        bucketBytes = bytes;
        return this;
    }

    /** A jccl knob for every task's communicator, e.g. {@code knob("JCCL_TRANSPORT", "tcp")}. */
    public DataParallelTraining knob(String name, String value) {
        knobs.put(name, value);
        return this;
    }

    /** Trains on {@code rows}, one task per partition; blocks until the stage is done. */
    public TrainingResult fit(Dataset<Row> rows) {
        return fit(rows.javaRDD());
    }

    public TrainingResult fit(JavaRDD<Row> rows) {
        Plan plan = new Plan(factory, steps, batchPerTask, bucketBytes, Map.copyOf(knobs));
        List<TaskReport> reports = new ArrayList<>(BarrierStage.mapPartitions(rows,
                (shard, context) -> PartitionTraining.run(shard, context, plan)).collect());
        reports.sort(Comparator.comparingInt(TaskReport::rank));
        return new TrainingResult(reports.getFirst().parameters(), List.copyOf(reports));
    }

    /** What every task is sent: the model factory and the shape of training. */
    record Plan(TaskModel.Factory factory, int steps, int batchPerTask, long bucketBytes, Map<String, String> knobs)
            implements Serializable {}
}
