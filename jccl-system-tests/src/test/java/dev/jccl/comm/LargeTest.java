package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

/**
 * Large buffers with the tuner's own plan (several channels, large chunks, many FIFO wraps):
 * 16 MiB always; 256 MiB only with {@code -Djccl.large=true}, since it needs a few seconds and a
 * gigabyte of memory per rank.
 */
@Tag("multiprocess")
class LargeTest {
    @ParameterizedTest(name = "{0} x {1} ranks")
    @CsvSource({"shm, 2", "shm, 4", "tcp, 2"})
    @Timeout(120)
    void sixteenMebibytes(String provider, int n) throws Exception {
        long count = (16L << 20) / 4 + 3; // not a multiple of any chunk
        List<Verify> ranks = CommRanks.run(n, CommRanks.knobs("JCCL_TRANSPORT", provider), comm -> {
            Verify v = new Verify(comm);
            v.allReduce(DataType.FLOAT32, ReduceOp.SUM, count, false);
            v.allReduce(DataType.FLOAT32, ReduceOp.SUM, count, true);
            v.allGather(DataType.INT32, count / n, false);
            v.reduceScatter(DataType.FLOAT32, ReduceOp.MAX, count / n, true);
            return v;
        });
        CollectivesTest.assertConsistent(ranks);
    }

    @Test
    @EnabledIfSystemProperty(named = "jccl.large", matches = "true")
    @Timeout(300)
    void twoHundredFiftySixMebibytes() throws Exception {
        long count = (256L << 20) / 4;
        List<Verify> ranks = CommRanks.run(2, CommRanks.knobs("JCCL_TRANSPORT", "shm"), comm -> {
            Verify v = new Verify(comm);
            v.allReduce(DataType.FLOAT32, ReduceOp.SUM, count, true);
            return v;
        });
        CollectivesTest.assertConsistent(ranks);
    }
}
