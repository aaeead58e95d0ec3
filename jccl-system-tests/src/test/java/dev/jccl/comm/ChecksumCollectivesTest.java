package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.List;

/** Every collective at every count of {@link CollectivesTest}, with JCCL_CHECKSUM=1: the trailers change no result. */
@Tag("multiprocess")
class ChecksumCollectivesTest {
    @ParameterizedTest(name = "{0} x {1} ranks")
    @CsvSource({"shm, 3", "tcp, 3", "shm, 4"})
    @Timeout(120)
    void everyCollectiveWithChecksums(String provider, int n) {
        List<Verify> ranks = CommRanks.run(n, CommRanks.knobs("JCCL_TRANSPORT", provider, "JCCL_CHECKSUM", "1"), comm -> {
            Verify v = new Verify(comm);
            for (long count : new long[] {0, 1, 7, 1009, 100_003}) v.everyCollective(DataType.FLOAT32, ReduceOp.SUM, count);
            return v;
        });
        CollectivesTest.assertConsistent(ranks);
    }
}
