package dev.jccl.comm;

import dev.jccl.Communicator;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** split() makes one communicator per color, ordered by key; the parent stays usable. */
@Tag("multiprocess")
class SplitTest {
    record Seen(int subRank, int subSize, int[] sum, int[] parentSum, boolean none) {}

    @Test
    @Timeout(60)
    void evenAndOddRanksSplitWithReversedKeys() throws Exception {
        List<Seen> seen = CommRanks.run(4, CommRanks.knobs(), comm -> {
            Seen s;
            try (Communicator sub = comm.split(comm.rank() % 2, -comm.rank())) {
                int[] v = {comm.rank(), 1};
                sub.allReduce(v, ReduceOp.SUM).await();
                int[] p = {1};
                comm.allReduce(p, ReduceOp.SUM).await();
                s = new Seen(sub.rank(), sub.size(), v, p, false);
            }
            Communicator none = comm.split(comm.rank() == 0 ? 0 : Communicator.SPLIT_NONE, 0);
            if (none != null) none.close();
            return new Seen(s.subRank(), s.subSize(), s.sum(), s.parentSum(), none == null);
        });
        for (int r = 0; r < 4; r++) {
            Seen s = seen.get(r);
            assertEquals(2, s.subSize());
            assertEquals(r < 2 ? 1 : 0, s.subRank(), "higher rank, lower key, comes first");
            assertArrayEquals(new int[] {r % 2 == 0 ? 2 : 4, 2}, s.sum());
            assertArrayEquals(new int[] {4}, s.parentSum());
            assertEquals(r != 0, s.none());
        }
        assertNull(null);
    }
}
