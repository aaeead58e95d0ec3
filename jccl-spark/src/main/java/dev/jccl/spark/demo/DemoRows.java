package dev.jccl.spark.demo;

import dev.jccl.cli.train.BlobMixture;
import dev.jccl.cli.train.ModelSpec;
import org.apache.spark.api.java.function.MapPartitionsFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import scala.jdk.javaapi.CollectionConverters;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * {@code jccl demo}'s synthetic dataset (Gaussian blobs, {@link BlobMixture}) as a DataFrame of
 * (sample, features, label), generated on the executors, laid out so that partition {@code r} holds,
 * step after step, the rows rank {@code r} of the demo trains on. Training it with
 * {@link dev.jccl.spark.DataParallelTraining} therefore sees the same global batches as
 * {@code jccl demo} and its single-process reference.
 */
public final class DemoRows {
    static final int SAMPLE = 0;
    static final int FEATURES = 1;
    static final int LABEL = 2;

    private DemoRows() {}

    public static StructType schema() {
        return new StructType()
                .add("sample", DataTypes.LongType, false)
                .add("features", DataTypes.createArrayType(DataTypes.FloatType, false), false)
                .add("label", DataTypes.IntegerType, false);
    }

    /** {@code steps} global batches of {@code tasks x batchPerTask} rows, in {@code tasks} partitions. */
    public static Dataset<Row> dataFrame(SparkSession spark, int tasks, int steps, int batchPerTask) {
        long perTask = (long) steps * batchPerTask;
        // range() splits [0, n) into equal contiguous slices, one per partition: slice r is task r's shard.
        MapPartitionsFunction<Long, Row> toRows = ids -> rows(ids, tasks, perTask, batchPerTask);
        return spark.range(0, tasks * perTask, 1, tasks).mapPartitions(toRows, Encoders.row(schema()));
    }

    private static Iterator<Row> rows(Iterator<Long> ids, int tasks, long perTask, int batchPerTask) {
        BlobMixture data = ModelSpec.demo().data();
        float[] x = new float[data.dims()];
        int[] label = new int[1];
        List<Row> out = new ArrayList<>();
        while (ids.hasNext()) {
            long id = ids.next();
            int task = (int) (id / perTask);
            long step = id % perTask / batchPerTask;
            long sample = step * tasks * batchPerTask + (long) task * batchPerTask + id % batchPerTask;
            data.fill(sample, 1, x, label);
            List<Float> features = new ArrayList<>(x.length);
            for (float v : x) features.add(v);
            // A Row holds an array column as a Scala Seq.
            out.add(RowFactory.create(sample, CollectionConverters.asScala(features), label[0]));
        }
        return out.iterator();
    }
}
