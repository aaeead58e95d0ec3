package dev.jccl.spark;

import dev.jccl.Communicator;
import dev.jccl.ReduceOp;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A communicator from a barrier stage in {@code local[4]}: collectives checked element by element. */
@Tag("multiprocess")
class BarrierCollectivesTest {
    static final int TASKS = 4;
    @RegisterExtension
    static final LocalSpark SPARK = new LocalSpark("local[" + TASKS + "]");

    @Test
    void allReduceAllGatherAndBroadcastInABarrierStageAreExact() {
        List<CollectiveResults> results = CollectiveResults.run(partitions(TASKS));
        assertEquals(TASKS, results.size());
        for (CollectiveResults r : results) {
            assertEquals(r.partition(), r.rank(), "rank is the partition id");
            assertEquals(TASKS, r.size());
            assertEquals(TASKS, r.localSize(), "rank " + r.rank() + ": every local[4] task is on one host");
            assertArrayEquals(CollectiveResults.expectedSum(TASKS), r.summed(), "allReduce on rank " + r.rank());
            assertArrayEquals(CollectiveResults.expectedGather(TASKS), r.gathered(), "allGather on rank " + r.rank());
            assertArrayEquals(CollectiveResults.expectedBroadcast(), r.broadcast(), "broadcast on rank " + r.rank());
        }
    }

    @Test
    void knobsReachEveryTasksCommunicatorAndTcpCarriesTheStageAsExactly() {
        Exception refused = assertThrows(Exception.class, () -> CollectiveResults.run(partitions(TASKS), Map.of("JCCL_TRANSPORT", "carrier-pigeon")));
        assertTrue(refused.getMessage().contains("carrier-pigeon"), "the stage fails naming the knob's value: " + refused.getMessage());
        // tcp connections prove the stage's job token, so this also checks every task got the same one.
        List<CollectiveResults> results = CollectiveResults.run(partitions(TASKS), Map.of("JCCL_TRANSPORT", "tcp"));
        assertEquals(TASKS, results.size());
        for (CollectiveResults r : results) {
            assertArrayEquals(CollectiveResults.expectedSum(TASKS), r.summed(), "allReduce on rank " + r.rank());
            assertArrayEquals(CollectiveResults.expectedGather(TASKS), r.gathered(), "allGather on rank " + r.rank());
            assertArrayEquals(CollectiveResults.expectedBroadcast(), r.broadcast(), "broadcast on rank " + r.rank());
        }
    }

    @Test
    void aStageRunTwiceGetsAFreshCommunicatorEachTime() {
        JavaRDD<Integer> rdd = partitions(TASKS);
        for (int round = 0; round < 2; round++) {
            List<Integer> sums = BarrierStage.mapPartitions(rdd, (rows, context) -> {
                try (Communicator comm = JcclSpark.communicator(context)) {
                    int[] one = {comm.rank() + 1};
                    comm.allReduce(one, ReduceOp.SUM).await();
                    return List.of(one[0]).iterator();
                }
            }).collect();
            assertEquals(List.of(10, 10, 10, 10), sums, "round " + round);
        }
    }

    static JavaRDD<Integer> partitions(int n) {
        return JavaSparkContext.fromSparkContext(SPARK.session().sparkContext()).parallelize(IntStream.range(0, n).boxed().toList(), n);
    }
}
