package dev.jccl.spark;

import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code local-cluster[2,2,1024]}: a standalone master and two workers in this JVM, each worker
 * starting one executor JVM with two cores, so the four tasks of a stage run in two processes.
 *
 * <p>Spark starts executor JVMs from a Spark distribution's jars. With only Maven artifacts, it adds
 * this JVM's class path when {@code spark.testing} is set (its own test suites run so); the workers'
 * Spark home ({@code spark.test.home}) is then an empty stand-in with the jars directory the
 * launcher insists on, and SPARK_SCALA_VERSION spares it looking for Spark's build directories.
 */
@Tag("multiprocess")
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class LocalClusterTest {
    static final int TASKS = 4;
    static SparkSession spark;

    /** Under target/, where the executors' logs (work/APP/EXECUTOR/stderr) stay for a look after a failure. */
    static final Path sparkHome = Path.of("target", "local-cluster-home").toAbsolutePath();

    @BeforeAll
    static void start() throws IOException, InterruptedException {
        Files.createDirectories(sparkHome.resolve("assembly/target/scala-2.13/jars"));
        System.setProperty("spark.testing", "true");
        System.setProperty("spark.test.home", sparkHome.toString());
        spark = LocalSpark.start("local-cluster[2,2,1024]", Map.of("spark.executorEnv.SPARK_SCALA_VERSION", "2.13",
                // A barrier stage submitted before its slots exist is retried at this interval (15 s by default).
                "spark.scheduler.barrier.maxConcurrentTasksCheck.interval", "1s"));
        awaitExecutors(2);
    }

    /** Executor JVMs take seconds to start and register; waits at most two minutes for {@code n}. */
    static void awaitExecutors(int n) throws InterruptedException {
        for (int i = 0; i < 1200 && registeredExecutors() < n; i++) Thread.sleep(100);
        assertEquals(n, registeredExecutors(), "executor JVMs registered with the driver (their logs: " + sparkHome.resolve("work") + ")");
    }

    static int registeredExecutors() {
        return spark.sparkContext().getExecutorMemoryStatus().size() - 1; // the driver's block manager is listed too
    }

    @AfterAll
    static void stop() {
        if (spark != null) spark.stop();
        System.clearProperty("spark.testing");
        System.clearProperty("spark.test.home");
    }

    @Test
    void tasksInTwoExecutorJvmsFormOneCommunicatorAndCollectivesAreExact() {
        var rdd = JavaSparkContext.fromSparkContext(spark.sparkContext()).parallelize(IntStream.range(0, TASKS).boxed().toList(), TASKS);
        List<CollectiveResults> results = CollectiveResults.run(rdd);
        assertEquals(TASKS, results.size());
        assertEquals(2, results.stream().mapToLong(CollectiveResults::pid).distinct().count(), "tasks ran in two executor JVMs");
        for (CollectiveResults r : results) {
            assertEquals(TASKS, r.localSize(), "rank " + r.rank() + ": both executors are on this host, so all four ranks share it (shm)");
            assertArrayEquals(CollectiveResults.expectedSum(TASKS), r.summed(), "allReduce on rank " + r.rank());
            assertArrayEquals(CollectiveResults.expectedGather(TASKS), r.gathered(), "allGather on rank " + r.rank());
            assertArrayEquals(CollectiveResults.expectedBroadcast(), r.broadcast(), "broadcast on rank " + r.rank());
        }
    }
}
