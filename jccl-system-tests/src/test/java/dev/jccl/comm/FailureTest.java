package dev.jccl.comm;

import dev.jccl.CommAbortedException;
import dev.jccl.CommTimeoutException;
import dev.jccl.DataType;
import dev.jccl.JcclException;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A rank that never calls, and a rank that aborts: the others fail in bounded time, saying who and where. */
@Tag("multiprocess")
class FailureTest {
    @Test
    @Timeout(60)
    void aRankThatNeverCallsTimesOutTheOthersNamingIt() throws Exception {
        List<String> seen = CommRanks.run(3, CommRanks.knobs("JCCL_TIMEOUT", "1s"), comm -> {
            comm.barrier().await();
            MemorySegment buf = Data.alloc(4000);
            if (comm.rank() == 2) {
                Thread.sleep(2500); // never calls the allReduce; learns of the failure meanwhile
                JcclException later = assertThrows(JcclException.class, () -> comm.barrier().await());
                assertInstanceOf(CommAbortedException.class, later);
                return "";
            }
            long start = System.nanoTime();
            CommTimeoutException e = assertThrows(CommTimeoutException.class,
                    () -> comm.allReduce(buf, 1000, DataType.FLOAT32, ReduceOp.SUM).await());
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms < 5_000, "took " + ms + " ms for a 1 s timeout");
            return e.getMessage();
        });
        for (int r = 0; r < 2; r++) {
            String m = seen.get(r);
            assertTrue(m.contains("allReduce #1"), m);
            assertTrue(m.contains("seq 2"), m);
            assertTrue(m.contains("did not show progress (never called collective #1): rank 2 (last: barrier #0 DONE)"), m);
            assertTrue(m.contains("last 2 operations on rank " + r), m);
        }
    }

    @Test
    @Timeout(60)
    void abortOnOneRankFailsTheOthers() throws Exception {
        List<JcclException> seen = CommRanks.run(3, CommRanks.knobs("JCCL_TIMEOUT", "10s"), comm -> {
            comm.barrier().await();
            MemorySegment buf = Data.alloc(4000);
            if (comm.rank() == 2) {
                Thread.sleep(300);
                comm.abort();
                return assertThrows(CommAbortedException.class, () -> comm.barrier());
            }
            return assertThrows(JcclException.class, () -> comm.allReduce(buf, 1000, DataType.FLOAT32, ReduceOp.SUM).await());
        });
        for (int r = 0; r < 2; r++) {
            JcclException e = seen.get(r);
            assertInstanceOf(CommAbortedException.class, e, () -> "rank: " + e);
            assertTrue(e.getMessage().contains("rank 2 aborted the communicator"), e.getMessage());
        }
        assertNotNull(seen.get(2));
    }
}
