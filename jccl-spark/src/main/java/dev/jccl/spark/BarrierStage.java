package dev.jccl.spark;

import org.apache.spark.BarrierTaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.rdd.RDD;
import scala.Function1;
import scala.jdk.javaapi.CollectionConverters;
import scala.reflect.ClassTag;
import scala.reflect.ClassTag$;

import java.io.Serializable;
import java.util.Iterator;

/**
 * {@code rdd.barrier().mapPartitions(...)} for Java: JavaRDD has no {@code barrier()}, and the Scala
 * one wants a Scala function, Scala iterators and a ClassTag.
 */
public final class BarrierStage {
    private BarrierStage() {}

    /** What one barrier task runs over its partition. */
    @FunctionalInterface
    public interface TaskFunction<T, R> extends Serializable {
        Iterator<R> call(Iterator<T> rows, BarrierTaskContext context);
    }

    /**
     * A barrier stage over {@code rdd}'s partitions: Spark starts all its tasks together or none, and
     * retries them together. Lazy, like any transformation; an action runs it.
     */
    public static <T, R> JavaRDD<R> mapPartitions(JavaRDD<T> rdd, TaskFunction<T, R> task) {
        Function1<scala.collection.Iterator<T>, scala.collection.Iterator<R>> body =
                (Function1<scala.collection.Iterator<T>, scala.collection.Iterator<R>> & Serializable)
                        rows -> CollectionConverters.asScala(task.call(CollectionConverters.asJava(rows), BarrierTaskContext.get()));
        ClassTag<R> tag = anyRef();
        RDD<R> out = rdd.rdd().barrier().mapPartitions(body, false, tag);
        return JavaRDD.fromRDD(out, tag);
    }

    @SuppressWarnings("unchecked")
    private static <R> ClassTag<R> anyRef() {
        return (ClassTag<R>) (ClassTag<?>) ClassTag$.MODULE$.AnyRef();
    }
}
