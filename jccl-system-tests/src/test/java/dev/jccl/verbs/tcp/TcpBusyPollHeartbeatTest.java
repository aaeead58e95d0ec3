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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A caller that busy-polls its completion queue while its receiver threads are held (descheduled)
 * still loses a stopped peer on the heartbeat bound: the consumer makes the silence check itself.
 */
@Tag("multiprocess")
class TcpBusyPollHeartbeatTest {

    @Test
    @Timeout(60)
    void aStoppedPeerIsLostWhileTheCallerBusyPollsWithItsReceiverThreadsHeld() throws Exception {
        try (ChildJvm child = ChildJvm.start(JavaCommand.main(TcpPeerProcess.class).args("2"));
             TcpPeer a = new TcpPeer(TcpPeer.config(2), 8)) {
            TcpPeerProcess.connect(child, a);
            ((TcpQueuePair) a.qp).holdReceiverThreads(true);
            MemoryRegion buf = a.region(64);
            assertTrue(a.qp.postRecv(new RecvWr(1, buf.sge(0, 64))));
            WorkCompletion[] out = WorkCompletion.array(1);
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(2); // heartbeats, read by this thread, keep it up
            while (System.nanoTime() < until) assertEquals(0, a.cq.poll(out), "an idle live peer is not lost: " + out[0]);
            TcpPeerProcess.signal("STOP", child.pid());
            try {
                while (a.cq.poll(out) == 0) Thread.onSpinWait(); // busy-poll: the @Timeout bounds it
                assertEquals(WcStatus.WR_FLUSH_ERR, out[0].status(), out[0].toString());
                assertTrue(out[0].detail().contains("sent nothing on lane") && out[0].detail().contains("heartbeat"), out[0].detail());
                assertEquals(QpState.ERR, a.qp.state());
            } finally {
                TcpPeerProcess.signal("KILL", child.pid());
                ((TcpQueuePair) a.qp).holdReceiverThreads(false);
            }
        }
    }
}
