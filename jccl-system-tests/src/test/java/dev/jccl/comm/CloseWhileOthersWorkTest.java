package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.PeerLostException;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A rank closes its communicator while the others still issue collectives: they fail at once
 * (not after JCCL_TIMEOUT, 60 s here) with an error naming the rank and the last collective it
 * completed; and the closing rank does not wait out the timeout either.
 */
@Tag("multiprocess")
class CloseWhileOthersWorkTest {
    @ParameterizedTest
    @ValueSource(strings = {"shm", "tcp"})
    @Timeout(60)
    void theOthersFailAtOnceNamingTheClosedRankAndItsLastCollective(String transport) throws Exception {
        List<String> seen = CommRanks.run(3, CommRanks.knobs("JCCL_TIMEOUT", "60s", "JCCL_TRANSPORT", transport), comm -> {
            MemorySegment buf = Data.alloc(4000);
            comm.allReduce(buf, 1000, DataType.FLOAT32, ReduceOp.SUM).await();
            comm.barrier().await();
            long start = System.nanoTime();
            if (comm.rank() == 2) {
                comm.close();
                return "closed in " + (System.nanoTime() - start) / 1_000_000 + " ms";
            }
            PeerLostException e = assertThrows(PeerLostException.class,
                    () -> comm.allReduce(buf, 1000, DataType.FLOAT32, ReduceOp.SUM).await());
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertEquals(2, e.lostRank(), e.getMessage());
            assertTrue(ms < 5_000, "took " + ms + " ms; JCCL_TIMEOUT is 60 s");
            return e.getMessage();
        });
        for (int r = 0; r < 2; r++) {
            String m = seen.get(r);
            assertTrue(m.contains("rank 2 closed its communicator after 2 collectives, the last barrier #1 (seq 2 on rank 2)"), m);
            assertTrue(m.contains("allReduce #2"), m);
        }
        long closeMs = Long.parseLong(seen.get(2).replaceAll("\\D", ""));
        assertTrue(closeMs < 10_000, "the closing rank gave up when the others failed: " + seen.get(2));
    }
}
