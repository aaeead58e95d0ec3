package dev.jccl.comm;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.Jccl;
import dev.jccl.ReduceOp;
import dev.jccl.Work;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("multiprocess")
class SmokeTest {
    @Test
    @Timeout(60)
    void twoRanksSumInts() throws Exception {
        List<int[]> out = CommRanks.run(2, CommRanks.knobs("JCCL_TRANSPORT", "shm"), comm -> {
            MemorySegment buf = Arena.ofAuto().allocate(4L * 10);
            for (int i = 0; i < 10; i++) buf.setAtIndex(ValueLayout.JAVA_INT, i, i + comm.rank() * 100);
            comm.allReduce(buf, 10, DataType.INT32, ReduceOp.SUM).await();
            return buf.toArray(ValueLayout.JAVA_INT);
        });
        for (int[] r : out) for (int i = 0; i < 10; i++) assertEquals(2 * i + 100, r[i]);
    }

    /** Without launcher variables a process is rank 0 of 1, with an in-memory store. */
    @Test
    @Timeout(60)
    void initWithoutALauncherIsASingleRank() {
        try (Communicator comm = Jccl.init()) {
            assertEquals(0, comm.rank());
            assertEquals(1, comm.size());
            assertEquals(1, comm.localSize());
            long[] v = {3, 4};
            comm.allReduce(v, ReduceOp.PROD).await();
            assertArrayEquals(new long[] {3, 4}, v);
            comm.barrier().await();
        }
    }

    /**
     * await(timeout) says "not yet" without failing; the operation completes later. The ranks exchange
     * once first, so this times an await on a connected link (the next test covers a link's first).
     */
    @Test
    @Timeout(60)
    void boundedAwaitReturnsFalseWhileThePeerIsLate() throws Exception {
        List<Boolean> early = CommRanks.run(2, CommRanks.knobs(), comm -> {
            MemorySegment buf = Arena.ofAuto().allocate(64);
            if (comm.rank() == 0) comm.recv(buf, 16, DataType.INT32, 1).await();
            else comm.send(buf, 16, DataType.INT32, 0).await();
            if (comm.rank() == 0) {
                Work w = comm.recv(buf, 16, DataType.INT32, 1);
                boolean done = w.await(Duration.ofMillis(50));
                assertTrue(w.await(Duration.ofSeconds(10)));
                assertTrue(w.isDone());
                assertTrue(w.exception().isEmpty());
                return done;
            }
            Thread.sleep(500); // late on purpose
            comm.send(buf, 16, DataType.INT32, 0).await();
            return false;
        });
        assertFalse(early.get(0), "the receive cannot have completed before its send was issued");
    }

    /**
     * await(timeout) is bounded even when the operation is a link's first: the pass that would connect the
     * link (which waits for the peer, up to JCCL_TIMEOUT) is left to the progress thread, so a caller whose
     * peer is seconds late gets "not yet" at its own deadline, and the operation still completes.
     */
    @Test
    @Timeout(60)
    void boundedAwaitIsBoundedOnALinksFirstOperation() throws Exception {
        List<Long> waitedMs = CommRanks.run(2, CommRanks.knobs(), comm -> {
            MemorySegment buf = Arena.ofAuto().allocate(64);
            if (comm.rank() == 0) {
                Work w = comm.recv(buf, 16, DataType.INT32, 1);
                long t0 = System.nanoTime();
                boolean done = w.await(Duration.ofMillis(50));
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertFalse(done, "the receive cannot have completed before its send was issued");
                assertTrue(w.await(Duration.ofSeconds(20)));
                assertEquals(42, buf.get(ValueLayout.JAVA_INT, 0));
                return ms;
            }
            Thread.sleep(3000); // late on purpose, and by far more than the await's timeout
            buf.set(ValueLayout.JAVA_INT, 0, 42);
            comm.send(buf, 16, DataType.INT32, 0).await();
            return 0L;
        });
        // Before, this waited for the peer: about 3,000 ms. The bound leaves room for a loaded machine.
        assertTrue(waitedMs.get(0) < 1500, "await(50 ms) returned after " + waitedMs.get(0) + " ms");
    }
}
