package dev.jccl.verbs.tcp;

import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The thread that waits for a completion reads its sockets itself: with every receiver thread held
 * (as a loaded host deschedules them), small messages, their ACKs and a peer's loss still arrive
 * through the consumers alone; and an ACK never comes after the data that answers the message.
 */
@Timeout(60)
@Tag("unit")
class TcpCallerReceiveTest {
    @ParameterizedTest(name = "inline {0}")
    @ValueSource(strings = {"0", "8K"})
    void pingPongRunsOnTheConsumersAloneAndAcksNeverLagData(String inline) {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_INLINE", inline), 16);
             TcpPeer b = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_INLINE", inline), 16)) {
            TcpPeer.connect(a, b);
            hold(true, a, b);
            MemoryRegion ra = a.region(4096), rb = b.region(4096);
            for (int i = 0; i < 200; i++) {
                int bytes = 1 + i * 20;
                TcpPeer.fill(ra.segment().asSlice(0, bytes), i);
                assertTrue(b.qp.postRecv(new RecvWr(i, rb.sge(0, bytes))));
                assertTrue(a.qp.postRecv(new RecvWr(i, ra.sge(0, 4096))));
                assertTrue(a.qp.postSend(SendWr.send(i, ra.sge(0, bytes))));
                awaitRecv(b, i); // B's earlier SENDs complete along the way
                assertEquals(-1, ra.segment().asSlice(0, bytes).mismatch(rb.segment().asSlice(0, bytes)), "round " + i);
                assertTrue(b.qp.postSend(SendWr.send(i, rb.sge(0, bytes))));
                // A's SEND completes on the ACK, which B sends with (or before) its answer: never after it.
                List<WorkCompletion> atA = awaitRecv(a, i);
                long round = i;
                assertTrue(atA.stream().anyMatch(wc -> wc.opcode() == WcOpcode.SEND && wc.wrId() == round),
                        "round " + i + ": the answer arrived before the ACK of the message it answers: " + atA);
            }
            hold(false, a, b);
        }
    }

    @ParameterizedTest(name = "{0} socket(s)")
    @ValueSource(ints = {1, 3})
    void aPeerClosingWhileTheCallerBusyPollsIsNoticedByTheCaller(int lanes) {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(lanes), 8)) {
            TcpPeer b = new TcpPeer(TcpPeer.config(lanes), 8);
            TcpPeer.connect(a, b);
            hold(true, a);
            MemoryRegion buf = a.region(64);
            assertTrue(a.qp.postRecv(new RecvWr(7, buf.sge(0, 64))));
            b.close();
            WorkCompletion[] out = WorkCompletion.array(1);
            long polls = 0;
            while (a.cq.poll(out) == 0) polls++; // busy-poll: the @Timeout bounds it
            assertEquals(WcStatus.WR_FLUSH_ERR, out[0].status(), out[0] + " after " + polls + " polls");
            assertEquals(7, out[0].wrId());
            assertEquals(QpState.ERR, a.qp.state());
            hold(false, a);
        }
    }

    private static void hold(boolean on, TcpPeer... peers) {
        for (TcpPeer p : peers) ((TcpQueuePair) p.qp).holdReceiverThreads(on);
    }

    /** Completions on {@code p} up to and including the receive {@code wrId}. */
    private static List<WorkCompletion> awaitRecv(TcpPeer p, long wrId) {
        List<WorkCompletion> seen = new ArrayList<>();
        while (true) {
            WorkCompletion wc = p.awaitOne();
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            seen.add(wc);
            if (wc.opcode() == WcOpcode.RECV && wc.wrId() == wrId) return seen;
        }
    }
}
