import dev.jccl.cli.train.BlobMixture;
import dev.jccl.cli.train.Evaluation;
import dev.jccl.cli.train.Mlp;
import dev.jccl.cli.train.ModelSpec;
import dev.jccl.spark.DataParallelTraining;
import dev.jccl.spark.JcclSpark;
import dev.jccl.spark.TaskReport;
import dev.jccl.spark.TrainingResult;
import dev.jccl.spark.demo.DemoMlpModel;
import dev.jccl.spark.demo.DemoRows;
import org.apache.spark.SparkConf;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.util.Locale;

/**
 * jccl demo's training inside Spark: the demo MLP on its synthetic dataset as a DataFrame, one
 * barrier task per partition, gradients averaged by jccl between the tasks. Run it with ./run.
 */
public class SparkTrain {
    static final int TASKS = 4;
    static final int BATCH_PER_TASK = 16;
    static final int HELD_OUT = 1024;

    public static void main(String[] args) throws Exception {
        int steps = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        long t0 = System.nanoTime();
        SparkConf conf = JcclSpark.configure(new SparkConf().setMaster("local[" + TASKS + "]").setAppName("jccl spark-train")
                .set("spark.ui.enabled", "false"));
        try (SparkSession spark = SparkSession.builder().config(conf).getOrCreate()) {
            System.out.printf(Locale.ROOT, "Spark %s %s started in %.1f s%n", spark.version(), conf.get("spark.master"), secondsSince(t0));
            Dataset<Row> rows = DemoRows.dataFrame(spark, TASKS, steps, BATCH_PER_TASK);
            System.out.printf(Locale.ROOT, "training the demo MLP (%,d parameters) for %d steps on %d partitions x %d rows per step%n",
                    ModelSpec.demo().model(1).parameterCount(), steps, TASKS, BATCH_PER_TASK);

            long t1 = System.nanoTime();
            TrainingResult result = DataParallelTraining.of(DemoMlpModel.factory(BATCH_PER_TASK))
                    .steps(steps).batchPerTask(BATCH_PER_TASK).bucketBytes(1 << 20).fit(rows);
            System.out.printf(Locale.ROOT, "barrier stage done in %.1f s%n", secondsSince(t1));
            print(result);
        }
    }

    static void print(TrainingResult result) {
        float[] losses = result.meanLosses();
        System.out.printf(Locale.ROOT, "training loss      %.4f (step 0) -> %.4f (step %d), mean over tasks%n", losses[0], losses[losses.length - 1], losses.length - 1);
        Evaluation before = evaluate(ModelSpec.demo().model(1).params());
        Evaluation after = evaluate(result.parameters());
        System.out.printf(Locale.ROOT, "held-out loss      %.4f -> %.4f    accuracy %.1f%% -> %.1f%%   (%d samples never trained on)%n",
                before.loss(), after.loss(), 100 * before.accuracy(), 100 * after.accuracy(), HELD_OUT);
        for (TaskReport t : result.tasks()) {
            System.out.printf(Locale.ROOT, "task %d on %s: mean step %.2f ms = compute %.2f ms + exposed communication %.2f ms + other %.2f ms;"
                            + " %.2f ms communication hidden under backward; %.1f MiB allreduced per step%n",
                    t.rank(), t.host(), t.stepMs(), t.computeMs(), t.exposedCommMs(), t.otherMs(), t.hiddenCommMs(), t.bytesPerStep() / 1048576.0);
        }
        StringBuilder sums = new StringBuilder();
        for (TaskReport t : result.tasks()) sums.append(String.format(Locale.ROOT, "  task %d %08x", t.rank(), t.checksum()));
        System.out.println("parameter checksum (CRC-32C of all float32 bits):" + sums
                + (result.checksumsAgree() ? "  identical on every task" : "  DIFFERENT"));
    }

    static Evaluation evaluate(float[] params) {
        ModelSpec spec = ModelSpec.demo();
        Mlp model = spec.model(256);
        System.arraycopy(params, 0, model.params(), 0, params.length);
        BlobMixture data = spec.data();
        return Evaluation.of(model, data, HELD_OUT);
    }

    static double secondsSince(long t0) {
        return (System.nanoTime() - t0) / 1e9;
    }
}
