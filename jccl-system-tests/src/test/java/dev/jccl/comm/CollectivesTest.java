package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every collective, in and out of place, at counts 0, 1, 7, a prime (1009), and a prime that is no
 * multiple of any chunk (100 003; 10 007 above four ranks, where allToAll's reference would move
 * n² times as much), over both providers and world sizes 1 to 8, with the tuner's own choices.
 * Results must equal the reference on every rank, and results every rank holds must be identical
 * across ranks.
 */
@Tag("multiprocess")
class CollectivesTest {

    @ParameterizedTest(name = "{0} x {1} ranks")
    @CsvSource({"shm, 1", "shm, 2", "shm, 3", "shm, 4", "shm, 5", "shm, 8", "tcp, 2", "tcp, 3", "tcp, 4"})
    @Timeout(120)
    void everyCollectiveAtEveryCount(String provider, int n) throws Exception {
        List<Verify> ranks = CommRanks.run(n, CommRanks.knobs("JCCL_TRANSPORT", provider), comm -> {
            Verify v = new Verify(comm);
            for (long count : new long[] {0, 1, 7, 1009, n <= 4 ? 100_003 : 10_007}) v.everyCollective(DataType.FLOAT32, ReduceOp.SUM, count);
            return v;
        });
        assertConsistent(ranks);
    }

    static void assertConsistent(List<Verify> ranks) {
        List<String> errors = new ArrayList<>();
        for (Verify v : ranks) errors.addAll(v.errors);
        assertEquals(List.of(), errors);
        for (Verify v : ranks) assertEquals(ranks.getFirst().shared, v.shared, "results that must be identical differ on rank " + v.rank);
    }
}
