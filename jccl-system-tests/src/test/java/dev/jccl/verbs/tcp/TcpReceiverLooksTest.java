package dev.jccl.verbs.tcp;

import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A receiver thread leaves a socket to the consumer that polls it and looks again only when its
 * sleep ({@link ConsumerLooks}) ends: what arrives after the consumer stopped waits for that look, or
 * for the consumer, and is taken (and acknowledged) by whichever comes first. A's SEND completes on
 * B's ACK (the RC meaning), which only a thread that reads B's socket sends.
 */
@Timeout(60)
@Tag("unit")
class TcpReceiverLooksTest {
    @Test
    void whatArrivesAfterTheConsumerStopsWaitsForTheReceiverThreadsNextLook() {
        sendAfterBsConsumerStopped(TimeUnit.SECONDS.toNanos(60), (a, b) -> {
            a.assertNoCompletion(1_000);
            assertRecv(b, 2); // B's consumer comes back and takes the message; the ACK goes as it polls again
            b.assertNoCompletion(50);
            assertSent(a);
        });
    }

    @Test
    void theReceiverThreadTakesOverAtItsNextLookWhenTheConsumerDoesNotComeBack() {
        sendAfterBsConsumerStopped(TimeUnit.MILLISECONDS.toNanos(200), (a, b) -> {
            assertSent(a);
            assertRecv(b, 2);
        });
    }

    /** Connects A and B, lets B's consumer poll and stop, then sends A to B (receive 2); {@code then} checks what follows. */
    private static void sendAfterBsConsumerStopped(long lookNs, BiConsumer<TcpPeer, TcpPeer> then) {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 8); TcpPeer b = new TcpPeer(TcpPeer.config(1), 8)) {
            MemoryRegion ra = a.region(64), rb = b.region(64);
            TcpPeer.connect(a, b);
            pollUntilTheReceiverThreadSleeps(b, lookNs);
            assertTrue(b.qp.postRecv(new RecvWr(2, rb.sge(0, 64))));
            assertTrue(a.qp.postSend(SendWr.send(1, ra.sge(0, 64))));
            then.accept(a, b);
        }
    }

    /**
     * B's consumer polls for 300 ms, longer than a receiver thread's select (100 ms) and its first
     * look, so the thread sleeps its fixed look when the consumer stops.
     */
    private static void pollUntilTheReceiverThreadSleeps(TcpPeer b, long lookNs) {
        ((TcpCompletionQueue) b.cq).receiverLooksForTests(lookNs);
        WorkCompletion[] out = WorkCompletion.array(4);
        long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
        while (System.nanoTime() < until) assertEquals(0, b.cq.poll(out), "nothing was posted");
    }

    private static void assertSent(TcpPeer a) {
        WorkCompletion wc = a.awaitOne();
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        assertEquals(WcOpcode.SEND, wc.opcode());
    }

    private static void assertRecv(TcpPeer p, long wrId) {
        WorkCompletion wc = p.awaitOne();
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        assertEquals(WcOpcode.RECV, wc.opcode());
        assertEquals(wrId, wc.wrId());
    }
}
