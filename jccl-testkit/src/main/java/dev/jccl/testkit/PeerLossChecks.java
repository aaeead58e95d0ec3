package dev.jccl.testkit;

import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** A peer that goes away is noticed through the transport within seconds, not by a timeout. */
public abstract class PeerLossChecks extends ConformanceCheck {
    private static final long NOTICE_NS = TimeUnit.SECONDS.toNanos(5);

    protected PeerLossChecks(ProviderTarget target) {
        super(target);
    }

    @Test
    @Timeout(30)
    void closingThePeerContextFlushesPostedReceivesWithinFiveSeconds() {
        try (EndpointPair pair = connected()) {
            MemoryRegion buf = pair.a().allocateRegion(3 * 64);
            for (int i = 0; i < 3; i++) post(pair.a().qp(), new RecvWr(10 + i, buf.sge(64L * i, 64)));
            pair.b().close();
            List<WorkCompletion> flushed = pair.a().recvs().next(3, NOTICE_NS);
            for (int i = 0; i < 3; i++) {
                assertEquals(10 + i, flushed.get(i).wrId(), "flush order: " + flushed);
                assertEquals(WcStatus.WR_FLUSH_ERR, flushed.get(i).status(), flushed.get(i).toString());
            }
        }
    }

    /**
     * Connecting to a peer that has gone: RTR may refuse (VerbsException) or connect lazily, and then
     * the first SEND must fail instead. Either way within 5 s, well inside JCCL_TIMEOUT (20 s here):
     * a gone peer is noticed through the transport, not by waiting out the timeout.
     */
    @Test
    @Timeout(60)
    void connectingToAClosedPeerFailsWithinFiveSeconds() {
        try (EndpointPair pair = EndpointPair.open(target, EndpointPair.Options.DEFAULT)) {
            QueuePair a = pair.a().qp();
            ConnectInfo gone = pair.b().qp().localInfo();
            pair.b().close();
            a.modifyToInit();
            long start = System.nanoTime();
            try {
                a.modifyToRtr(gone);
            } catch (VerbsException refused) {
                assertNoticedInTime("RTR to a closed peer failed", start, refused.getMessage());
                assertEquals(QpState.INIT, a.state(), "state after a refused RTR");
                return;
            }
            a.modifyToRts();
            MemoryRegion src = pair.a().allocateRegion(64);
            post(a, SendWr.send(1, src.sge(0, 64)));
            WorkCompletion wc = pair.a().sends().next(TimeUnit.SECONDS.toNanos(30));
            assertNotEquals(WcStatus.SUCCESS, wc.status(), "a SEND over a connection to a closed peer: " + wc);
            assertNoticedInTime("a SEND to a closed peer failed", start, wc.toString());
        }
    }

    private static void assertNoticedInTime(String what, long startNs, String detail) {
        long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
        if (tookMs > TimeUnit.NANOSECONDS.toMillis(NOTICE_NS)) {
            throw new AssertionError(what + " only after " + tookMs + " ms (JCCL_TIMEOUT here is 20 s), i.e. by"
                    + " waiting out the timeout rather than noticing the peer is gone: " + detail);
        }
    }

    @Test
    @Timeout(30)
    void aSendToAClosedPeerFailsWithinFiveSeconds() {
        try (EndpointPair pair = connected()) {
            MemoryRegion src = pair.a().allocateRegion(64);
            pair.b().close();
            post(pair.a().qp(), SendWr.send(1, src.sge(0, 64)));
            WorkCompletion wc = pair.a().sends().next(NOTICE_NS);
            assertEquals(1, wc.wrId(), wc.toString());
            assertNotEquals(WcStatus.SUCCESS, wc.status(), "a SEND to a closed peer: " + wc);
        }
    }
}
