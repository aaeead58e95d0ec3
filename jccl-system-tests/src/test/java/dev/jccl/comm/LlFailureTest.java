package dev.jccl.comm;

import dev.jccl.CollectiveMismatchException;
import dev.jccl.DataType;
import dev.jccl.JcclException;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Waiting on LL lines is bounded and clear: a rank calling an allreduce of another count makes
 * every rank fail with a mismatch naming the field (seen in the flags, not by a timeout), and a
 * rank that aborts while its peer waits for its LL message makes the waiter fail naming it, the
 * allreduce and its sequence number. No timing is asserted beyond the test's own bound.
 */
@Tag("multiprocess")
class LlFailureTest {
    private static Map<String, String> knobs(String provider) {
        return CommRanks.knobs("JCCL_TRANSPORT", provider, "JCCL_TIMEOUT", "10s", "JCCL_PROTO", "ll", "JCCL_ALGO", "recursive_doubling");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm"})
    @Timeout(90)
    void aMismatchedCountFailsEveryRankNamingIt(String provider) throws Exception {
        List<JcclException> seen = CommRanks.run(3, knobs(provider), comm -> {
            var buf = Data.alloc(4 * 100);
            try {
                comm.allReduce(buf, buf, 8, DataType.FLOAT32, ReduceOp.SUM).await(); // connects every link on LL
            } catch (JcclException e) {
                return e;
            }
            return Outcomes.failureOf(comm, () -> comm.allReduce(buf, buf, comm.rank() == 2 ? 99 : 100, DataType.FLOAT32, ReduceOp.SUM));
        });
        for (int r = 0; r < 3; r++) {
            JcclException e = seen.get(r);
            assertNotNull(e, "rank " + r + " did not fail");
            CollectiveMismatchException m = Outcomes.find(e, CollectiveMismatchException.class);
            assertNotNull(m, "rank " + r + " failed with something else: " + e);
            assertTrue(m.getMessage().contains("count: ") && m.getMessage().contains("rank 2 has 99"), m.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"shm"})
    @Timeout(90)
    void aPeerThatAbortsDuringTheWaitIsNamed(String provider) throws Exception {
        List<JcclException> seen = CommRanks.run(2, knobs(provider), comm -> {
            var buf = Data.alloc(64);
            comm.allReduce(buf, buf, 2, DataType.FLOAT32, ReduceOp.SUM).await();
            if (comm.rank() == 1) {
                Thread.sleep(200); // rank 0 is waiting for this rank's lines of seq 2
                comm.abort();
                return null;
            }
            try {
                comm.allReduce(buf, buf, 2, DataType.FLOAT32, ReduceOp.SUM).await();
                return null;
            } catch (JcclException e) {
                return e;
            }
        });
        assertNull(seen.get(1));
        JcclException e = seen.get(0);
        assertNotNull(e, "rank 0 completed although rank 1 aborted");
        assertTrue(e.getMessage().contains("rank 1") && e.getMessage().contains("allReduce") && e.getMessage().contains("seq 2"), e.getMessage());
    }
}
