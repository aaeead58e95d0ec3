package dev.jccl.verbs.tcp;

import dev.jccl.testkit.jvm.ChildJvm;
import dev.jccl.testkit.jvm.JavaCommand;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A peer that goes away is noticed through the socket at once, and everything outstanding is flushed. */
@Tag("multiprocess")
class TcpPeerLossTest {
    /** The child JVM's start-up on a loaded machine included. */

    @Test
    @Timeout(30)
    void closedPeerContextFlushesOutstandingReceivesNamingThePeer() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(2), 8)) {
            TcpPeer b = new TcpPeer(TcpPeer.config(2), 8);
            TcpPeer.connect(a, b);
            String bAddress = b.qp.localInfo().gid();
            MemoryRegion buf = a.region(256);
            for (int i = 0; i < 3; i++) assertTrue(a.qp.postRecv(new RecvWr(i, buf.sge(i * 64, 64))));
            b.close();
            for (int i = 0; i < 3; i++) {
                WorkCompletion wc = a.awaitOne();
                assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc.toString());
                assertEquals(i, wc.wrId());
                assertTrue(wc.detail().contains(bAddress), wc.detail());
            }
            assertEquals(QpState.ERR, a.qp.state());
        }
    }

    @Test
    @Timeout(60)
    void killedPeerProcessIsNoticedWithinFiveSeconds() throws Exception {
        try (ChildJvm child = ChildJvm.start(JavaCommand.main(TcpPeerProcess.class).args("2"));
             TcpPeer a = new TcpPeer(TcpPeer.config(2), 8)) {
            ConnectInfo theirs = TcpPeerProcess.connect(child, a);
            MemoryRegion buf = a.region(64);
            assertTrue(a.qp.postRecv(new RecvWr(1, buf.sge(0, 64))));

            long killedAt = System.nanoTime();
            child.process().destroyForcibly(); // SIGKILL: no shutdown hook, no goodbye
            WorkCompletion wc = a.awaitOne();
            long noticedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killedAt);
            assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc.toString());
            assertTrue(wc.detail().contains(theirs.gid()), wc.detail());
            assertTrue(noticedMs < 5000, "peer death noticed after " + noticedMs + " ms");
        }
    }
}
