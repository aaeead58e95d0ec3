package dev.jccl.comm;

import dev.jccl.CollectiveMismatchException;
import dev.jccl.DataType;
import dev.jccl.JcclException;
import dev.jccl.ReduceOp;
import dev.jccl.testkit.CommRanks;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Rank 2 of three calls a collective that differs in one field. Every rank must fail (in that call,
 * or at its next one if its own part finished first) with a {@link CollectiveMismatchException}
 * that names the field, the ranks and their values; none hangs and none reports success with wrong
 * data. (A rank that had not yet issued the call when the others gave up is not listed with a
 * value, so the messages name rank 2's value and the others' value without insisting on which
 * ranks reported the latter.)
 */
@Tag("multiprocess")
class MismatchTest {
    private static final Map<String, String> KNOBS = CommRanks.knobs("JCCL_TIMEOUT", "5s", "JCCL_ALGO", "ring");
    private static final long COUNT = 1000;

    interface Call {
        dev.jccl.Work issue(dev.jccl.Communicator comm, boolean odd);
    }

    private static void expectMismatch(Call call, String... mustMention) throws Exception {
        List<JcclException> seen = CommRanks.run(3, KNOBS, comm -> {
            try {
                comm.barrier().await(); // connects; a rank may still be finishing it when another detects the mismatch
            } catch (JcclException e) {
                return e;
            }
            return Outcomes.failureOf(comm, () -> call.issue(comm, comm.rank() == 2));
        });
        for (int r = 0; r < 3; r++) {
            JcclException e = seen.get(r);
            assertNotNull(e, "rank " + r + " did not fail");
            CollectiveMismatchException m = Outcomes.find(e, CollectiveMismatchException.class);
            assertNotNull(m, () -> "rank " + " failed with something else: " + e);
            for (String s : mustMention) assertTrue(m.getMessage().contains(s), "rank " + r + ": '" + s + "' missing in: " + m.getMessage());
        }
    }

    private static MemorySegment buf(long elems) {
        return Data.alloc(8 * elems);
    }

    @Test
    @Timeout(60)
    void count() throws Exception {
        expectMismatch((c, odd) -> c.allReduce(buf(COUNT), odd ? COUNT - 1 : COUNT, DataType.FLOAT32, ReduceOp.SUM),
                "count: ", " 1000", "rank 2 has 999");
    }

    @Test
    @Timeout(60)
    void type() throws Exception {
        expectMismatch((c, odd) -> c.allReduce(buf(COUNT), COUNT, odd ? DataType.INT32 : DataType.FLOAT32, ReduceOp.SUM),
                "type: ", " float", "rank 2 has int32");
    }

    @Test
    @Timeout(60)
    void operator() throws Exception {
        expectMismatch((c, odd) -> c.allReduce(buf(COUNT), COUNT, DataType.FLOAT32, odd ? ReduceOp.MAX : ReduceOp.SUM),
                "op: ", " sum", "rank 2 has max");
    }

    @Test
    @Timeout(60)
    void root() throws Exception {
        expectMismatch((c, odd) -> c.broadcast(buf(COUNT), COUNT, DataType.FLOAT32, odd ? 1 : 0),
                "root: ", " 0", "rank 2 has 1");
    }

    @Test
    @Timeout(60)
    void collective() throws Exception {
        expectMismatch((c, odd) -> odd ? c.allGather(buf(COUNT), buf(3 * COUNT), COUNT, DataType.FLOAT32)
                        : c.allReduce(buf(COUNT), COUNT, DataType.FLOAT32, ReduceOp.SUM),
                "collective: ", " allReduce", "rank 2 has allGather");
    }
}
