package dev.jccl.spark;

import dev.jccl.DataType;
import dev.jccl.JcclException;
import dev.jccl.cli.train.ModelSpec;
import dev.jccl.cli.train.ReferenceTraining;
import dev.jccl.cli.train.TrainSettings;
import dev.jccl.ddp.Sharding;
import dev.jccl.spark.demo.DemoMlpModel;
import dev.jccl.spark.demo.DemoRows;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Training the demo MLP over 4 partitions in {@code local[4]}, against {@code jccl demo}'s
 * single-process reference and its own ranks on the same global batches; a task that fails in the
 * middle, and a job cancelled in the middle.
 *
 * <p>Tolerance: as {@code jccl demo}'s end-to-end check, 1e-5. Data parallelism differs from one
 * process only in the order float32 sums are taken (per-task means averaged against one mean over
 * the global batch).
 */
@Tag("multiprocess")
class DataParallelTrainingTest {
    static final int TASKS = 4;
    static final int STEPS = 10;
    static final int BATCH = 16;
    static final float DEMO_TOLERANCE = 1e-5f;
    @RegisterExtension
    static final LocalSpark SPARK = new LocalSpark("local[" + TASKS + "]");

    @Test
    void fourPartitionsEndIdenticalAndEqualToTheSingleProcessReference() throws Exception {
        TrainingResult result = DataParallelTraining.of(() -> new DemoMlpModel(ModelSpec.demo(), BATCH))
                .steps(STEPS).batchPerTask(BATCH).bucketBytes(1 << 20)
                .fit(DemoRows.dataFrame(SPARK.session(), TASKS, STEPS, BATCH));

        assertEquals(TASKS, result.tasks().size());
        assertTrue(result.checksumsAgree(), "checksums differ: " + hex(result.checksums()));
        assertEquals(PartitionTraining.checksum(result.parameters()), result.checksums()[0], "returned parameters are task 0's");
        TrainSettings demo = new TrainSettings(TASKS, STEPS, BATCH, 1, 0, DataType.FLOAT32, true, 1 << 20, Sharding.REPLICATED, 0);
        float[] reference = ReferenceTraining.run(ModelSpec.demo(), demo);
        float[] initial = ModelSpec.demo().model(1).params();
        assertTrue(maxDiff(reference, initial) > 1e-3f, "training moved the parameters");
        float diff = maxDiff(result.parameters(), reference);
        assertTrue(diff < DEMO_TOLERANCE, "max |difference| to the single-process reference: " + diff);
        for (TaskReport t : result.tasks()) assertTrue(t.stepMs() > 0 && t.computeMs() > 0, "step-time split of task " + t.rank());
        // The same global batches through the same ddp helper and collectives: jccl demo's ranks end with the same bits.
        assertEquals(hex(result.checksums()), hex(DemoRanks.checksums(demo)), "checksums of jccl demo's ranks on the same settings");
    }

    @Test
    void aTaskThatThrowsMidTrainingFailsTheOthersNamingItAndTheStageFails() {
        FailingModel.causes.clear();
        Exception stage = assertThrows(Exception.class, () -> DataParallelTraining.of(() -> new FailingModel(1, 3))
                .steps(STEPS).batchPerTask(BATCH).fit(DemoRows.dataFrame(SPARK.session(), TASKS, STEPS, BATCH)));
        assertTrue(stage.getMessage().contains(FailingModel.MESSAGE), "the stage fails with the task's error: " + stage.getMessage());

        Map<Integer, Throwable> causes = FailingModel.awaitCauses(TASKS);
        assertEquals(FailingModel.MESSAGE, causes.get(1).getMessage());
        for (int rank : new int[] {0, 2, 3}) {
            Throwable peer = causes.get(rank);
            assertNotNull(peer, "task " + rank + " failed too");
            System.out.println("task " + rank + " failed with: " + peer);
            assertInstanceOf(JcclException.class, peer, "task " + rank + " fails with jccl's error");
            assertTrue(peer.getMessage().contains("rank 1"), "task " + rank + "'s error names rank 1: " + peer.getMessage());
        }
    }

    @Test
    void cancellingTheJobStopsTrainingThatWouldOtherwiseRunForHours() throws Exception {
        FailingModel.causes.clear();
        FailingModel.stepsDone.set(0);
        JavaSparkContext sc = JavaSparkContext.fromSparkContext(SPARK.session().sparkContext());
        CompletableFuture<TrainingResult> endless = CompletableFuture.supplyAsync(() -> {
            sc.setJobGroup("endless", "training that only a cancel ends", false);
            return DataParallelTraining.of(() -> new FailingModel(-1, -1)).steps(1_000_000).batchPerTask(BATCH)
                    .fit(DemoRows.dataFrame(SPARK.session(), TASKS, 2, BATCH));
        });
        for (int i = 0; i < 600 && FailingModel.stepsDone.get() < TASKS; i++) Thread.sleep(100);
        assertTrue(FailingModel.stepsDone.get() >= TASKS, "training started");
        sc.cancelJobGroup("endless");
        ExecutionException e = assertThrows(ExecutionException.class, endless::get);
        assertTrue(e.getCause().getMessage().contains("cancelled"), "the job ends cancelled: " + e.getCause());
        // The job fails on the driver at once; the tasks themselves stop only because their
        // communicators are aborted when Spark kills them.
        Map<Integer, Throwable> stopped = FailingModel.awaitCauses(TASKS);
        assertEquals(TASKS, stopped.size(), "tasks that stopped training: " + stopped.keySet());
        for (Throwable t : stopped.values()) assertInstanceOf(JcclException.class, t, () -> "a task stopped with " + stackOf(t));
    }

    private static String stackOf(Throwable t) {
        java.io.StringWriter w = new java.io.StringWriter();
        t.printStackTrace(new java.io.PrintWriter(w));
        return w.toString();
    }

    static float maxDiff(float[] a, float[] b) {
        float d = 0;
        for (int i = 0; i < a.length; i++) d = Math.max(d, Math.abs(a[i] - b[i]));
        return d;
    }

    static String hex(long[] values) {
        StringBuilder s = new StringBuilder();
        for (long v : values) s.append(String.format("%08x ", v));
        return s.toString().trim();
    }
}
