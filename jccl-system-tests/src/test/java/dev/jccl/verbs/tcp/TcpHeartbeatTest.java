package dev.jccl.verbs.tcp;

import dev.jccl.testkit.jvm.ChildJvm;
import dev.jccl.testkit.jvm.JavaCommand;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Heartbeats: a peer that stops (SIGSTOP: its sockets stay open, TCP sees nothing wrong) is lost
 * after 15 silent heartbeats, while an idle but live peer keeps its queue pair for much longer.
 */
@Tag("multiprocess")
class TcpHeartbeatTest {

    @Test
    @Timeout(60)
    void anIdleLivePeerKeepsTheLinkAndAStoppedOneIsLostAfterFifteenHeartbeats() throws Exception {
        try (ChildJvm child = ChildJvm.start(JavaCommand.main(TcpPeerProcess.class).args("2"));
             TcpPeer a = new TcpPeer(TcpPeer.config(2), 8)) {
            TcpPeerProcess.connect(child, a);
            MemoryRegion buf = a.region(64);
            assertTrue(a.qp.postRecv(new RecvWr(1, buf.sge(0, 64))));

            Thread.sleep(5_000); // idle for more than 15 heartbeats (3 s): heartbeats keep it up
            assertEquals(QpState.RTS, a.qp.state(), "an idle live peer is not lost");

            long stoppedAt = System.nanoTime();
            TcpPeerProcess.signal("STOP", child.pid());
            try {
                WorkCompletion wc = a.awaitOne();
                long noticedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stoppedAt);
                assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc.toString());
                assertTrue(wc.detail().contains("sent nothing on lane") && wc.detail().contains("heartbeat"), wc.detail());
                assertTrue(noticedMs >= 2_500 && noticedMs < 10_000, "stopped peer noticed after " + noticedMs + " ms");
            } finally {
                TcpPeerProcess.signal("KILL", child.pid());
            }
        }
    }
}
