package dev.jccl.verbs.tcp;

import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * JCCL_TCP_INLINE=auto: only a queue pair created with
 * {@code QpInitAttr.sendBufferCompletion} (the collectives' links) completes a request whose frame
 * left whole during the post without the peer's ACK, small (copied) or not; every other queue pair
 * keeps RC's meaning, as the conformance suite requires.
 */
@Timeout(60)
@Tag("unit")
class TcpBufferCompletionTest {
    /** B's receiver threads are held and B never polls, so no ACK comes: only the opted-in queue pair completes. */
    @Test
    void onlyAQueuePairThatAskedCompletesWithoutThePeersAck() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_INLINE", "auto"), 16);
             TcpPeer b = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_INLINE", "auto"), 16)) {
            QueuePair[] pair = TcpPeer.bufferCompletionPair(a, b, 16);
            QueuePair fast = pair[0], peer = pair[1];
            TcpPeer.connect(a, b);
            ((TcpQueuePair) peer).holdReceiverThreads(true);
            ((TcpQueuePair) b.qp).holdReceiverThreads(true);
            // 64 B is copied into its frame; 64 KiB is not, and completes because its frame left whole during the post
            // (the socket buffers take 8 of them while B reads nothing).
            MemoryRegion src = a.region(64 << 10), dst = b.region((64 << 10) * 8);
            for (int i = 0; i < 16; i++) {
                int bytes = i < 8 ? 64 : 64 << 10;
                SendWr wr = SendWr.write(i, src.sge(0, bytes), dst.address() + (long) (i % 8) * (64 << 10), dst.rkey());
                assertTrue(fast.postSend(wr));
                WorkCompletion done = a.awaitOne();
                assertEquals(WcStatus.SUCCESS, done.status(), done.toString());
                assertEquals(WcOpcode.RDMA_WRITE, done.opcode(), done.toString());
                assertEquals(i, done.wrId());
            }
            // The same request on a queue pair that did not ask waits for the ACK, which B holds back.
            assertTrue(a.qp.postSend(SendWr.write(100, src.sge(0, 64), dst.address(), dst.rkey())));
            a.assertNoCompletion(300);
            ((TcpQueuePair) b.qp).holdReceiverThreads(false);
            ((TcpQueuePair) peer).holdReceiverThreads(false);
            WorkCompletion acked = a.awaitOne();
            assertEquals(100, acked.wrId(), acked.toString());
            assertEquals(WcStatus.SUCCESS, acked.status(), acked.toString());
        }
    }
}
