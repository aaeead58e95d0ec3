package dev.jccl.provider.ucx;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.Jccl;
import dev.jccl.ReduceOp;
import dev.jccl.bootstrap.MemoryStore;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Collectives over a communicator forced onto UCX (JCCL_TRANSPORT=ucx), ranks as threads: every
 * rank must end with the same bits, and sums of small integers held in float32 must be exact.
 */
@Tag("multiprocess")
class UcxCollectivesTest {
    private static final int RANKS = 3;

    @ParameterizedTest(name = "{0} elements")
    @ValueSource(longs = {1, 1_000_003, 4L << 20})
    @Timeout(180)
    void allReduceAndAllGatherGiveEveryRankTheSameBits(long count) throws Exception {
        UcxTests.assumeUcpLoads();
        MemoryStore store = new MemoryStore();
        ExecutorService pool = Executors.newFixedThreadPool(RANKS);
        try {
            List<Future<float[]>> results = new ArrayList<>();
            for (int r = 0; r < RANKS; r++) {
                int rank = r;
                results.add(pool.submit(() -> runRank(store, rank, count)));
            }
            float[] first = results.getFirst().get(150, TimeUnit.SECONDS);
            for (int i = 0; i < count; i++) {
                float expected = 0;
                for (int r = 0; r < RANKS; r++) expected += value(r, i);
                if (first[i] != expected) throw new AssertionError("element " + i + ": " + first[i] + " != " + expected);
            }
            for (int r = 1; r < RANKS; r++) {
                assertArrayEquals(first, results.get(r).get(150, TimeUnit.SECONDS), "rank " + r + " differs from rank 0");
            }
        } finally {
            pool.shutdownNow();
            store.close();
        }
    }

    private static float value(int rank, long i) {
        return (float) ((i * 7 + rank * 13) % 1000);
    }

    private static float[] runRank(MemoryStore store, int rank, long count) throws Exception {
        try (Arena arena = Arena.ofShared();
             Communicator comm = Jccl.init(CommOptions.builder().rank(rank).size(RANKS).store(store).ignoreEnvironment()
                     .transports("ucx").knob("JCCL_TIMEOUT", "60s").knob("JCCL_DEBUG", "INFO").build())) {
            MemorySegment buf = arena.allocate(count * 4, 64);
            for (long i = 0; i < count; i++) buf.setAtIndex(JAVA_FLOAT, i, value(rank, i));
            comm.allReduce(buf, count, DataType.FLOAT32, ReduceOp.SUM).await();
            MemorySegment gathered = arena.allocate(count * 4 * RANKS, 64);
            comm.allGather(buf, gathered, count, DataType.FLOAT32).await();
            for (int r = 0; r < RANKS; r++) {
                assertEquals(-1, buf.asSlice(0).mismatch(gathered.asSlice(r * count * 4, count * 4)),
                        "block " + r + " of the allGather on rank " + rank);
            }
            float[] out = buf.toArray(JAVA_FLOAT);
            return Arrays.copyOf(out, out.length);
        }
    }
}
