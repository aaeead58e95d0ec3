package dev.jccl.verbs.base;

import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

@Tag("unit")
class OutstandingSendsTest {
    @Test
    void depthIsBackPressureAndAcksFreeSlotsInOrder() {
        OutstandingSends s = new OutstandingSends(2);
        BasicCompletionQueue cq = new BasicCompletionQueue(8);
        long a = s.add(1, Opcode.SEND, 10, true);
        assertNotEquals(OutstandingSends.FULL, s.add(2, Opcode.RDMA_WRITE, 20, false));
        assertEquals(OutstandingSends.FULL, s.add(3, Opcode.SEND, 30, true), "queue full must be a value, not an exception");
        s.ackThrough(a, cq, 9);
        assertNotEquals(OutstandingSends.FULL, s.add(3, Opcode.SEND, 30, true));
        s.ackThrough(Long.MAX_VALUE, cq, 9);
        WorkCompletion[] wc = WorkCompletion.array(4);
        assertEquals(2, cq.poll(wc), "the unsignaled write completes silently");
        assertEquals(1, wc[0].wrId());
        assertEquals(3, wc[1].wrId());
    }

    @Test
    void aFailureCompletesTheCulpritAndFlushesTheRest() {
        OutstandingSends s = new OutstandingSends(4);
        BasicCompletionQueue cq = new BasicCompletionQueue(8);
        s.add(1, Opcode.RDMA_WRITE, 8, true);
        long bad = s.add(2, Opcode.RDMA_WRITE, 8, true);
        s.add(3, Opcode.SEND, 8, true);
        s.ackThrough(bad - 1, cq, 1);
        s.fail(bad, WcStatus.REM_ACCESS_ERR, "rkey unknown", cq, 1);
        WorkCompletion[] wc = WorkCompletion.array(4);
        assertEquals(3, cq.poll(wc));
        assertEquals(WcStatus.SUCCESS, wc[0].status());
        assertEquals(WcStatus.REM_ACCESS_ERR, wc[1].status());
        assertEquals("rkey unknown", wc[1].detail());
        assertEquals(WcStatus.WR_FLUSH_ERR, wc[2].status());
        assertEquals(0, s.size());
    }
}
