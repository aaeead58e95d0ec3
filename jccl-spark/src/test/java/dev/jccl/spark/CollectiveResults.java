package dev.jccl.spark;

import dev.jccl.Communicator;
import dev.jccl.ReduceOp;
import org.apache.spark.api.java.JavaRDD;

import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * What one barrier task saw of three collectives, with the values every rank must see. Counts are
 * primes, so no collective gets a count that divides evenly into chunks or ranks.
 */
record CollectiveResults(int partition, int rank, int size, int localSize, long pid, int[] summed, int[] gathered,
                         float[] broadcast) implements Serializable {
    static final int SUM_COUNT = 1031;
    static final int GATHER_COUNT = 257;
    static final int BROADCAST_COUNT = 4099;
    static final int ROOT = 2;

    /** One task per partition of {@code rdd}, each joining one communicator and running the three collectives. */
    static List<CollectiveResults> run(JavaRDD<Integer> rdd) {
        return run(rdd, Map.of());
    }

    /** As {@link #run(JavaRDD)}, with knobs for every task's communicator. */
    static List<CollectiveResults> run(JavaRDD<Integer> rdd, Map<String, String> knobs) {
        return BarrierStage.mapPartitions(rdd, (rows, context) -> {
            try (Communicator comm = JcclSpark.communicator(context, knobs)) {
                int r = comm.rank();
                int[] sum = new int[SUM_COUNT];
                for (int i = 0; i < sum.length; i++) sum[i] = r * 100_000 + i;
                comm.allReduce(sum, ReduceOp.SUM).await();
                int[] mine = new int[GATHER_COUNT];
                for (int i = 0; i < mine.length; i++) mine[i] = r * 1000 + i;
                int[] all = new int[GATHER_COUNT * comm.size()];
                comm.allGather(mine, all).await();
                float[] bcast = new float[BROADCAST_COUNT];
                for (int i = 0; i < bcast.length; i++) bcast[i] = i * 0.5f + r;
                comm.broadcast(bcast, ROOT).await();
                return List.of(new CollectiveResults(context.partitionId(), r, comm.size(), comm.localSize(),
                        ProcessHandle.current().pid(), sum, all, bcast)).iterator();
            }
        }).collect().stream().sorted(java.util.Comparator.comparingInt(CollectiveResults::rank)).toList();
    }

    static int[] expectedSum(int ranks) {
        int[] e = new int[SUM_COUNT];
        for (int i = 0; i < e.length; i++) for (int r = 0; r < ranks; r++) e[i] += r * 100_000 + i;
        return e;
    }

    static int[] expectedGather(int ranks) {
        int[] e = new int[GATHER_COUNT * ranks];
        for (int r = 0; r < ranks; r++) for (int i = 0; i < GATHER_COUNT; i++) e[r * GATHER_COUNT + i] = r * 1000 + i;
        return e;
    }

    static float[] expectedBroadcast() {
        float[] e = new float[BROADCAST_COUNT];
        for (int i = 0; i < e.length; i++) e[i] = i * 0.5f + ROOT;
        return e;
    }
}
