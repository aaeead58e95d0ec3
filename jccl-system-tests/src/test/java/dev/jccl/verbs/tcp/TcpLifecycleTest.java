package dev.jccl.verbs.tcp;

import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Closing frees every thread and socket; traffic keeps flowing both ways at once. */
@Timeout(30)
@Tag("unit")
class TcpLifecycleTest {
    @Test
    void closeLeavesNoThreadBehind() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(4), 8); TcpPeer b = new TcpPeer(TcpPeer.config(4), 8)) {
            TcpPeer.connect(a, b);
            MemoryRegion src = a.region(1 << 20), dst = b.region(1 << 20);
            assertTrue(a.qp.postSend(SendWr.write(1, src.sge(0, 1 << 20), dst.address(), dst.rkey())));
            assertEquals(WcStatus.SUCCESS, a.awaitOne().status());
            assertTrue(tcpThreads().size() >= 1 + 4 + 4, "listener, senders and receivers run: " + tcpThreads());
        }
        Deadline deadline = Deadline.after(TimeUnit.SECONDS.toNanos(5));
        BackoffIdleStrategy idle = WaitPolicy.stateWait();
        while (!tcpThreads().isEmpty() && !deadline.expired()) idle.idle();
        assertEquals(List.of(), tcpThreads());
    }

    @Test
    void bothDirectionsAtOnceOnOneQueuePair() throws Exception {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(2), 16); TcpPeer b = new TcpPeer(TcpPeer.config(2), 16)) {
            TcpPeer.connect(a, b);
            long bytes = 8L << 20;
            MemoryRegion aSrc = a.region(bytes), aDst = a.region(bytes), aRead = a.region(bytes);
            MemoryRegion bSrc = b.region(bytes), bDst = b.region(bytes), bRead = b.region(bytes);
            TcpPeer.fill(aSrc.segment(), 11);
            TcpPeer.fill(bSrc.segment(), 12);
            // Receives first, so neither SEND can outrun the other side's post (that would be RNR).
            assertTrue(a.qp.postRecv(new RecvWr(50, aSrc.sge(0, 0))));
            assertTrue(b.qp.postRecv(new RecvWr(50, bSrc.sge(0, 0))));
            // Each side writes into the other, reads the other's source and sends, all at the same time.
            Thread other = Thread.ofPlatform().start(() -> exchange(b, bSrc, bRead, aSrc, aDst));
            exchange(a, aSrc, aRead, bSrc, bDst);
            other.join();
            assertEquals(-1, aSrc.segment().mismatch(bDst.segment()));
            assertEquals(-1, bSrc.segment().mismatch(aDst.segment()));
            assertEquals(-1, bSrc.segment().mismatch(aRead.segment()));
            assertEquals(-1, aSrc.segment().mismatch(bRead.segment()));
            assertEquals(QpState.RTS, a.qp.state());
            assertEquals(QpState.RTS, b.qp.state());
        }
    }

    private static void exchange(TcpPeer me, MemoryRegion src, MemoryRegion readSink, MemoryRegion peerSrc,
                                 MemoryRegion peerDst) {
        long bytes = src.length();
        assertTrue(me.qp.postSend(SendWr.write(1, src.sge(0, bytes), peerDst.address(), peerDst.rkey())));
        assertTrue(me.qp.postSend(SendWr.read(2, readSink.sge(0, bytes), peerSrc.address(), peerSrc.rkey())));
        assertTrue(me.qp.postSend(SendWr.send(3, src.sge(0, 0))));
        int next = 1;
        boolean received = false;
        while (next <= 3 || !received) {
            WorkCompletion wc = me.awaitOne();
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            if (wc.wrId() == 50) {
                received = true;
            } else {
                assertEquals(next++, wc.wrId(), "send completions in posting order");
            }
        }
    }

    private static List<String> tcpThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                .filter(n -> n.startsWith("jccl-tcp-")).sorted().toList();
    }
}
