package dev.jccl.cli.train;

import dev.jccl.DataType;
import dev.jccl.ddp.CommunicatorCollectives;
import dev.jccl.ddp.Sharding;
import dev.jccl.testkit.CommRanks;
import dev.jccl.trace.DataPathCounters;
import dev.jccl.trace.Timeline;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * DDP's buckets come from the communicator's shared memory, so over shm peers reduce them in place
 * (JCCL_DIRECT); training must give the same bits as with direct reads off, replicated and sharded,
 * in float32 and bfloat16. Small buckets and chunks, so every step is many buckets of many chunks.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@Tag("multiprocess")
class DirectReadsTrainingTest {
    @ParameterizedTest(name = "{0} ranks, {1}, {2}")
    @CsvSource({"2, REPLICATED, FLOAT32", "3, REPLICATED, FLOAT32", "2, REDUCE_SCATTER, FLOAT32", "2, REPLICATED, BFLOAT16"})
    void trainingWithDirectReadsIsBitIdentical(int ranks, Sharding sharding, DataType precision) {
        TrainSettings s = new TrainSettings(ranks, 6, 8, 1, 0, precision, true, 4096, sharding, 0);
        DataPathCounters.Snapshot before = DataPathCounters.snapshot();
        List<float[]> direct = train(s, "1");
        long read = DataPathCounters.snapshot().since(before).get(DataPathCounters.Counter.DIRECT_READ_BYTES);
        before = DataPathCounters.snapshot();
        List<float[]> copying = train(s, "0");
        assertEquals(0, DataPathCounters.snapshot().since(before).get(DataPathCounters.Counter.DIRECT_READ_BYTES));
        assertTrue(read > 0, "bucket buffers were read in place");
        for (int r = 0; r < ranks; r++) assertArrayEquals(copying.get(r), direct.get(r), "rank " + r + "'s parameters");
        for (int r = 1; r < ranks; r++) assertArrayEquals(direct.get(0), direct.get(r), "every rank holds the same parameters");
    }

    private static List<float[]> train(TrainSettings s, String direct) {
        return CommRanks.run(s.ranks(), CommRanks.knobs("JCCL_TRANSPORT", "shm", "JCCL_DIRECT", direct, "JCCL_CHUNKSIZE", "4K",
                "JCCL_BUFFSIZE", "64K"), comm -> {
            try (RankTrainer t = new RankTrainer(DataParallelTrainingTest.SMALL, s, new CommunicatorCollectives(comm), Timeline.DISABLED)) {
                for (int step = 0; step < s.steps(); step++) t.step(step);
                return t.model().params().clone();
            }
        });
    }
}
