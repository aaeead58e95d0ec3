package dev.jccl.verbs.tcp;

import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Inline requests: a payload of up to 8 KiB is copied into its frame during the post, so the source
 * may be overwritten as soon as postSend returns; with JCCL_TCP_INLINE the request also completes
 * without the peer's ACK, while a refusal still reaches the sender.
 */
@Timeout(60)
@Tag("unit")
class TcpInlineSendTest {
    @ParameterizedTest(name = "inline {0}, {1} socket(s), {2} B")
    @CsvSource({"0, 1, 8", "0, 4, 8192", "8K, 1, 8", "8K, 1, 8192", "8K, 4, 1000", "64, 2, 64"})
    void theSourceMayBeOverwrittenRightAfterThePost(String inline, int lanes, int bytes) {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(lanes, "JCCL_TCP_INLINE", inline), 16);
             TcpPeer b = new TcpPeer(TcpPeer.config(lanes, "JCCL_TCP_INLINE", inline), 16)) {
            TcpPeer.connect(a, b);
            MemoryRegion src = a.region(bytes), dst = b.region(bytes), sent = a.region(bytes);
            for (int i = 0; i < 100; i++) {
                TcpPeer.fill(src.segment(), i);
                sent.segment().copyFrom(src.segment());
                assertTrue(b.qp.postRecv(new RecvWr(i, dst.sge(0, bytes))));
                SendWr wr = i % 2 == 0 ? SendWr.send(i, src.sge(0, bytes))
                        : SendWr.writeWithImm(i, src.sge(0, bytes), dst.address(), dst.rkey(), i);
                assertTrue(a.qp.postSend(wr));
                src.segment().fill((byte) 0x5a); // the request already holds its bytes
                WorkCompletion got = b.awaitOne();
                assertEquals(WcStatus.SUCCESS, got.status(), got.toString());
                assertEquals(-1, dst.segment().mismatch(sent.segment()), "round " + i + ": the peer saw the overwrite");
                WorkCompletion done = a.awaitOne();
                assertEquals(WcStatus.SUCCESS, done.status(), done.toString());
                assertEquals(i, done.wrId());
            }
        }
    }

    /** B's receiver threads are held and B never polls: nobody there sends an ACK, yet A's requests complete. */
    @Test
    void anInlineRequestCompletesWithoutThePeersAck() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_INLINE", "8K"), 16);
             TcpPeer b = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_INLINE", "8K"), 16)) {
            TcpPeer.connect(a, b);
            ((TcpQueuePair) b.qp).holdReceiverThreads(true);
            MemoryRegion src = a.region(64), dst = b.region(64 * 8);
            for (int i = 0; i < 8; i++) {
                assertTrue(a.qp.postSend(SendWr.write(i, src.sge(0, 64), dst.address() + 64L * i, dst.rkey())));
                WorkCompletion done = a.awaitOne();
                assertEquals(WcOpcode.RDMA_WRITE, done.opcode(), done.toString());
                assertEquals(i, done.wrId());
            }
            ((TcpQueuePair) b.qp).holdReceiverThreads(false);
        }
    }

    /** Early completions free send slots before the ACK; a poster that fills every slot still stays inside the peer's window. */
    @Test
    void aPosterThatRefillsEveryFreedSlotStaysInsideThePeersWindow() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(2, "JCCL_TCP_INLINE", "8K"), 4);
             TcpPeer b = new TcpPeer(TcpPeer.config(2, "JCCL_TCP_INLINE", "8K"), 4)) {
            TcpPeer.connect(a, b);
            MemoryRegion src = a.region(64), dst = b.region(64);
            WorkCompletion[] wc = WorkCompletion.array(4);
            int posted = 0, completed = 0;
            while (completed < 2000) {
                boolean room = posted < 2000 && a.qp.postSend(SendWr.write(posted, src.sge(0, 64), dst.address(), dst.rkey()));
                if (room) posted++;
                // Completions are taken as they come (the CQ holds 16), waiting only when the send queue is full.
                int n = room ? a.cq.poll(wc) : a.cq.await(wc, java.util.concurrent.TimeUnit.SECONDS.toNanos(15));
                assertTrue(room || n > 0, "no completion within 15 s, " + completed + " of " + posted + " done");
                for (int k = 0; k < n; k++) {
                    assertEquals(WcStatus.SUCCESS, wc[k].status(), wc[k].toString());
                    assertEquals(completed++, wc[k].wrId());
                }
            }
            assertEquals(QpState.RTS, b.qp.state(), "the peer refused the stream");
            assertEquals(QpState.RTS, a.qp.state());
        }
    }

    /**
     * A refusal of a request that completed already lands on the next one outstanding, and the queue
     * pair goes to ERR, so the sender never takes a refused stream for a delivered one.
     */
    @Test
    void aRefusalOfACompletedInlineRequestReachesTheSender() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_INLINE", "8K"), 16);
             TcpPeer b = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_INLINE", "8K"), 16)) {
            TcpPeer.connect(a, b);
            MemoryRegion src = a.region(1 << 20), dst = b.region(64);
            assertTrue(a.qp.postSend(SendWr.write(1, src.sge(0, 64), dst.address(), dst.rkey() ^ 0x5a5a5a5a)));
            assertTrue(a.qp.postSend(SendWr.write(2, src.sge(0, 1 << 20), dst.address(), dst.rkey())));
            WorkCompletion first = a.awaitOne();
            WorkCompletion second = a.awaitOne();
            assertEquals(1, first.wrId());
            assertEquals(2, second.wrId());
            boolean reported = first.status() == WcStatus.REM_ACCESS_ERR || second.status() == WcStatus.REM_ACCESS_ERR;
            assertTrue(reported, "the refusal was lost: " + first + ", " + second);
            a.awaitState(QpState.ERR);
            assertTrue(TcpPeer.allZero(dst.segment()), "target memory was written");
        }
    }
}
