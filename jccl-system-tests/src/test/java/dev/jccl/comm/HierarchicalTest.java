package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Two "hosts" of two ranks each, told apart by JCCL_HOST_ID: ranks group by host (local rank and
 * size), links within a host use shared memory and links across use tcp, and the hierarchical
 * allreduce (reduce-scatter in the host, allreduce across, allgather in the host) is correct.
 */
@Tag("multiprocess")
class HierarchicalTest {
    record Seen(int localRank, int localSize, String sameHost, String otherHost, Verify verify) {}

    @Test
    @Timeout(120)
    void twoHostsOfTwoRanks() throws Exception {
        List<Seen> ranks = CommRanks.run(4, r -> CommRanks.knobs("JCCL_HOST_ID", r < 2 ? "hostA" : "hostB", "JCCL_ALGO", "hierarchical",
                "JCCL_CHUNKSIZE", "4K", "JCCL_BUFFSIZE", "64K"), comm -> {
            Verify v = new Verify(comm);
            for (long count : new long[] {1, 7, 1009, 100_003}) {
                v.allReduce(DataType.FLOAT32, ReduceOp.SUM, count, false);
                v.allReduce(DataType.INT64, ReduceOp.MAX, count, true);
            }
            v.randomFloatAllReduce(30_011, false);
            CommunicatorImpl c = (CommunicatorImpl) comm;
            int buddy = comm.rank() ^ 1;
            int far = (comm.rank() + 2) % 4;
            return new Seen(comm.localRank(), comm.localSize(), c.providerFor(buddy), c.providerFor(far), v);
        });
        for (int r = 0; r < 4; r++) {
            assertEquals(r % 2, ranks.get(r).localRank(), "local rank of rank " + r);
            assertEquals(2, ranks.get(r).localSize());
            assertEquals("shm", ranks.get(r).sameHost());
            assertEquals("tcp", ranks.get(r).otherHost());
        }
        CollectivesTest.assertConsistent(ranks.stream().map(Seen::verify).toList());
    }
}
