package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

/**
 * Every algorithm forced through JCCL_ALGO over both providers, with several channels and chunks
 * far smaller than the data, so operations pipeline across steps and the slot FIFOs wrap many
 * times. Exact data checks every collective; random floats check that every rank holds the same
 * bits and that they are within the bound of any order of additions.
 */
@Tag("multiprocess")
class AlgorithmsTest {
    @ParameterizedTest(name = "{0} over {1} x {2} ranks, {3} channels, chunk {4}, FIFO {5}")
    @CsvSource({
            "ring,             shm, 3, 2, 4K,   64K",
            "ring,             tcp, 4, 1, auto, 1M",
            "tree,             shm, 5, 2, 4K,   64K",
            "tree,             tcp, 3, 2, 8K,   64K",
            "halving_doubling, shm, 6, 3, 4K,   64K",
            "halving_doubling, shm, 8, 1, auto, 1M",
            "halving_doubling, tcp, 5, 1, 4K,   32K",
            "recursive_doubling, shm, 2, 1, 4K, 64K",
            "recursive_doubling, shm, 7, 2, 4K, 32K",
            "recursive_doubling, tcp, 3, 2, 4K, 64K",
            "recursive_doubling, tcp, 8, 1, auto, 1M",
            "hierarchical,     shm, 4, 2, 4K,   64K",
            "hierarchical,     tcp, 4, 1, 8K,   64K",
            "pairwise,         shm, 3, 2, 4K,   64K",
            "pairwise,         tcp, 4, 1, 4K,   64K",
    })
    @Timeout(120)
    void forcedAlgorithm(String algo, String provider, int n, String channels, String chunk, String buff) throws Exception {
        List<Verify> ranks = CommRanks.run(n, CommRanks.knobs("JCCL_TRANSPORT", provider, "JCCL_ALGO", algo,
                "JCCL_NCHANNELS", channels.equals("1") ? "auto" : channels, "JCCL_CHUNKSIZE", chunk, "JCCL_BUFFSIZE", buff), comm -> {
            Verify v = new Verify(comm);
            for (long count : new long[] {1, 7, 1009}) v.everyCollective(DataType.FLOAT32, ReduceOp.SUM, count);
            v.allReduce(DataType.INT32, ReduceOp.SUM, 100_003, false);
            v.allReduce(DataType.INT32, ReduceOp.MAX, 100_003, true);
            v.randomFloatAllReduce(30_011, false);
            v.randomFloatAllReduce(30_011, true);
            return v;
        });
        CollectivesTest.assertConsistent(ranks);
    }
}
