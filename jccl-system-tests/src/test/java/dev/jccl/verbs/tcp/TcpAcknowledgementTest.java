package dev.jccl.verbs.tcp;

import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Acknowledgements the receiving consumer defers, hoping to send them with its answer, still reach
 * the sender when no answer comes; and consumers and receiver threads share the sockets safely.
 */
@Timeout(60)
@Tag("unit")
class TcpAcknowledgementTest {
    @Test
    void aSendCompletesWhenItsReceiverPollsOnceAndNeverAnswers() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 8); TcpPeer b = new TcpPeer(TcpPeer.config(1), 8)) {
            TcpPeer.connect(a, b);
            MemoryRegion src = a.region(64), dst = b.region(64);
            for (int i = 0; i < 50; i++) {
                assertTrue(b.qp.postRecv(new RecvWr(i, dst.sge(0, 64))));
                assertTrue(a.qp.postSend(SendWr.send(i, src.sge(0, 64))));
                WorkCompletion got = b.awaitOne(); // B takes the SEND itself and owes the ACK
                assertEquals(WcOpcode.RECV, got.opcode(), got.toString());
                WorkCompletion sent = a.awaitOne(); // ... which must come although B never posts or polls again
                assertEquals(WcStatus.SUCCESS, sent.status(), sent.toString());
                assertEquals(i, sent.wrId());
            }
        }
    }

    @Test
    void pingPongWithLargeAndSmallMessagesKeepsOrderAndData() {
        int rounds = 200;
        try (TcpPeer a = new TcpPeer(TcpPeer.config(2), 16); TcpPeer b = new TcpPeer(TcpPeer.config(2), 16)) {
            TcpPeer.connect(a, b);
            MemoryRegion ra = a.region(1 << 20), rb = b.region(1 << 20);
            WorkCompletion[] wc = WorkCompletion.array(4);
            for (int i = 0; i < rounds; i++) {
                // Alternate small and large messages, and every third round post B's receive late, so the
                // frame stalls, the receiver thread takes the socket, and consumers and receiver threads hand it back and forth.
                long bytes = i % 3 == 0 ? (1 << 20) - i : 8 + i;
                boolean late = i % 3 == 1;
                TcpPeer.fill(ra.segment().asSlice(0, bytes), i);
                if (!late) assertTrue(b.qp.postRecv(new RecvWr(i, Sge.EMPTY)));
                assertTrue(a.qp.postRecv(new RecvWr(i, Sge.EMPTY)));
                assertTrue(a.qp.postSend(SendWr.writeWithImm(i, ra.sge(0, bytes), rb.address(), rb.rkey(), i).unsignaled()));
                if (late) {
                    long until = System.nanoTime() + 300_000; // well inside the 20 ms RNR timeout, even on a busy host
                    while (System.nanoTime() < until) Thread.onSpinWait();
                    assertTrue(b.qp.postRecv(new RecvWr(i, Sge.EMPTY)));
                }
                assertReceive(b, wc, i);
                assertEquals(ra.segment().asSlice(0, bytes).mismatch(rb.segment().asSlice(0, bytes)), -1, "round " + i);
                assertTrue(b.qp.postSend(SendWr.writeWithImm(i, rb.sge(0, 8), ra.address(), ra.rkey(), i).unsignaled()));
                assertReceive(a, wc, i);
            }
        }
    }

    /**
     * Inline requests on queue pairs that asked for buffer completion are marked lazy, so B's consumer
     * holds their acks for an answer that never comes here. A still needs them: its completions run at
     * most one send queue ahead of the acks. B only polls (never sleeps, its receiver threads held), so
     * what sends them is the quarter-window rule of {@code OutboundLanes.flushAckIfDue}.
     */
    @Test
    void lazyAcksKeepTheSendersWindowOpenWhileTheReceiverOnlyPolls() throws Exception {
        int depth = 16, writes = 40 * depth;
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_INLINE", "auto"), depth);
             TcpPeer b = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_INLINE", "auto"), depth)) {
            QueuePair[] pair = TcpPeer.bufferCompletionPair(a, b, depth);
            QueuePair fast = pair[0], peer = pair[1];
            ((TcpQueuePair) peer).holdReceiverThreads(true);
            MemoryRegion src = a.region(64), dst = b.region(64L * writes);
            AtomicBoolean stop = new AtomicBoolean();
            Thread poller = Thread.ofPlatform().daemon().start(() -> {
                WorkCompletion[] none = WorkCompletion.array(4);
                while (!stop.get()) b.cq.poll(none); // takes every frame, answers none
            });
            try {
                WorkCompletion[] wc = WorkCompletion.array(16);
                int posted = 0, completed = 0;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (completed < writes) {
                    assertTrue(System.nanoTime() < deadline, "stalled after " + completed + " of " + writes + " writes completed");
                    while (posted < writes && posted - completed < depth) { // the CQ holds what one send queue completes
                        src.segment().set(ValueLayout.JAVA_LONG, 0, posted);
                        if (!fast.postSend(SendWr.write(posted, src.sge(0, 64), dst.address() + 64L * posted, dst.rkey()))) break;
                        posted++;
                    }
                    int n = a.cq.poll(wc);
                    for (int i = 0; i < n; i++) {
                        assertEquals(WcStatus.SUCCESS, wc[i].status(), wc[i].toString());
                        assertEquals(completed++, wc[i].wrId(), "completions keep posting order");
                    }
                }
                // Done locally means the buffer is free, not that B has it: the last writes may still be on the way.
                long last = 64L * (writes - 1);
                while (dst.segment().get(ValueLayout.JAVA_LONG, last) != writes - 1) {
                    assertTrue(System.nanoTime() < deadline, "the last write never landed");
                    VarHandle.acquireFence(); // B's consumer thread writes it; read it afresh
                }
            } finally {
                stop.set(true);
                poller.join();
            }
            for (int i = 0; i < writes; i++) {
                assertEquals(i, dst.segment().get(ValueLayout.JAVA_LONG, 64L * i), "write " + i + " landed");
            }
        }
    }

    private static void assertReceive(TcpPeer p, WorkCompletion[] wc, int imm) {
        int n = p.cq.await(wc, 15_000_000_000L);
        assertEquals(1, n, "no receive completion in round " + imm);
        assertEquals(WcStatus.SUCCESS, wc[0].status(), wc[0].toString());
        assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, wc[0].opcode(), wc[0].toString());
        assertEquals(imm, wc[0].imm());
    }
}
