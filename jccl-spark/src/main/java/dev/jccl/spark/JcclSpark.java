package dev.jccl.spark;

import dev.jccl.Communicator;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.SparkConf;

import java.util.Map;

/**
 * jccl inside Spark: a {@link Communicator} for the tasks of a barrier stage, with no launcher.
 *
 * <pre>{@code
 * rdd.barrier().mapPartitions(rows -> {
 *     try (Communicator comm = JcclSpark.communicator(BarrierTaskContext.get())) {
 *         comm.allReduce(grads, n, DataType.FLOAT32, ReduceOp.AVG).await();
 *         ...
 *     }
 * });
 * }</pre>
 *
 * <p>Barrier mode is what makes this possible: Spark starts every task of the stage together or
 * none, so the tasks can wait for each other (the same ground XGBoost4J-Spark and Horovod on Spark
 * stand on).
 */
public final class JcclSpark {
    private JcclSpark() {}

    /**
     * Joins the tasks of this barrier stage: rank = partition id, size = tasks in the stage. Every
     * task of the stage must call it, once per stage attempt. Blocks until all have joined, at most
     * min(JCCL_TIMEOUT, spark.barrier.sync.timeout).
     *
     * <p>If the task then fails, or Spark kills it (a cancelled job, a failed stage), its
     * communicator is aborted at once, so the other tasks fail with jccl's error naming this rank
     * instead of waiting out a timeout; when the task ends, the communicator is closed if the
     * caller has not closed it.
     */
    public static Communicator communicator(BarrierTaskContext context) {
        return communicator(context, Map.of());
    }

    /** As {@link #communicator(BarrierTaskContext)}, with knob overrides such as {@code JCCL_TRANSPORT}. */
    public static Communicator communicator(BarrierTaskContext context, Map<String, String> knobs) {
        return BarrierRendezvous.join(context, knobs);
    }

    /**
     * Adds what executors need to run jccl to {@code conf}; returns it. Executor JVMs get the
     * native-access and Vector API flags jccl needs (Spark 4.2 lists them among its own module
     * options; this does not rely on it), and SPARK_USER (the driver's, else the OS user): without
     * it the Hadoop of Spark 4.0 (3.4.1) asks JDK 24+ for the security-manager Subject, which the
     * JDK no longer gives, and fails. Spark 4.2's Hadoop 3.5 copes, but a cluster may bring its own.
     */
    public static SparkConf configure(SparkConf conf) {
        return ExecutorSetup.apply(conf);
    }
}
