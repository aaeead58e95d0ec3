package dev.jccl.verbs.tcp;

import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Shared sockets (JCCL_TCP_SHARED_SOCKETS=1): the side that sorts first opens them, the other side's
 * lanes wait for them. Whichever side reaches RTR first, sends posted meanwhile arrive; a peer that never
 * opens, or that splits its sockets, is reported within JCCL_TIMEOUT, never waited for.
 */
@Tag("unit")
@Timeout(60)
class TcpSharedSocketsTest {
    @ParameterizedTest(name = "the {0} reaches RTR first")
    @ValueSource(strings = {"acceptor", "opener"})
    void sendsPostedBeforeTheSocketsExistArriveInOrderBothWays(String first) {
        try (TcpPeer x = new TcpPeer(TcpPeer.config(2), 8); TcpPeer y = new TcpPeer(TcpPeer.config(2), 8)) {
            TcpPeer[] roles = TcpPeer.byRole(x, y);
            TcpPeer early = first.equals("opener") ? roles[0] : roles[1];
            TcpPeer late = early == roles[0] ? roles[1] : roles[0];
            MemoryRegion earlyBuf = early.region(3 * 1031);
            MemoryRegion lateBuf = late.region(3 * 1031);
            early.qp.modifyToRtr(late.qp.localInfo());
            early.qp.modifyToRts();
            TcpPeer.fill(earlyBuf.segment().asSlice(0, 1031 * 3), 7);
            for (int i = 0; i < 3; i++) assertTrue(early.qp.postSend(SendWr.send(i, earlyBuf.sge(i * 1031L, 1031))));
            for (int i = 0; i < 3; i++) assertTrue(late.qp.postRecv(new RecvWr(10 + i, lateBuf.sge(i * 1031L, 1031))));
            late.qp.modifyToRtr(early.qp.localInfo());
            late.qp.modifyToRts();
            assertTrue(late.qp.describe().endsWith("(2 sockets, shared)"), late.qp.describe());
            for (int i = 0; i < 3; i++) {
                WorkCompletion r = late.awaitOne();
                assertEquals(WcStatus.SUCCESS, r.status(), r.toString());
                assertEquals(10 + i, r.wrId());
            }
            assertEquals(-1, earlyBuf.segment().mismatch(lateBuf.segment()));
            for (int i = 0; i < 3; i++) assertEquals(WcStatus.SUCCESS, early.awaitOne().status());
            // and back, over the same sockets
            assertTrue(early.qp.postRecv(new RecvWr(20, earlyBuf.sge(0, 5))));
            assertTrue(late.qp.postSend(SendWr.send(21, lateBuf.sge(5, 5))));
            assertEquals(WcStatus.SUCCESS, early.awaitOne().status());
            assertEquals(WcStatus.SUCCESS, late.awaitOne().status());
            assertEquals(-1, earlyBuf.segment().asSlice(0, 5).mismatch(lateBuf.segment().asSlice(5, 5)));
        }
    }

    @Test
    void anAcceptorWhoseOpenerNeverComesFailsWithinTheTimeoutNamingThePeer() {
        try (TcpPeer x = new TcpPeer(TcpPeer.config(1, "JCCL_TIMEOUT", "1s"), 4); TcpPeer y = new TcpPeer(TcpPeer.config(1, "JCCL_TIMEOUT", "1s"), 4)) {
            TcpPeer[] roles = TcpPeer.byRole(x, y);
            TcpPeer acceptor = roles[1];
            MemoryRegion buf = acceptor.region(64);
            acceptor.qp.modifyToRtr(roles[0].qp.localInfo());
            acceptor.qp.modifyToRts();
            assertTrue(acceptor.qp.postSend(SendWr.send(1, buf.sge(0, 64))));
            WorkCompletion wc = acceptor.awaitOne();
            assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc.toString());
            assertTrue(wc.detail().contains("did not open lane 0 within"), wc.detail());
            assertTrue(wc.detail().contains(roles[0].qp.localInfo().gid()), wc.detail());
            assertEquals(QpState.ERR, acceptor.qp.state());
        }
    }

    @Test
    void anAcceptorNoticesAnOpenerThatGoesBeforeOpeningWithinAFewHeartbeats() {
        try (TcpPeer x = new TcpPeer(TcpPeer.config(1), 4); TcpPeer y = new TcpPeer(TcpPeer.config(1), 4)) {
            TcpPeer[] roles = TcpPeer.byRole(x, y);
            TcpPeer acceptor = roles[1];
            MemoryRegion buf = acceptor.region(64);
            acceptor.qp.modifyToRtr(roles[0].qp.localInfo());
            acceptor.qp.modifyToRts();
            assertTrue(acceptor.qp.postSend(SendWr.send(1, buf.sge(0, 64))));
            long start = System.nanoTime();
            roles[0].close();
            WorkCompletion wc = acceptor.awaitOne();
            long tookMs = (System.nanoTime() - start) / 1_000_000;
            assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc.toString());
            assertTrue(wc.detail().contains("went before opening lane 0"), wc.detail());
            assertTrue(tookMs < 5_000, "noticed after " + tookMs + " ms, JCCL_TIMEOUT is 20 s: " + wc.detail());
        }
    }

    @ParameterizedTest(name = "the shared side sorts first: {0}")
    @ValueSource(booleans = {true, false})
    void sidesThatDisagreeOnSharingAreRefusedNamingTheKnob(boolean sharedFirst) {
        try (TcpPeer shared = new TcpPeer(TcpPeer.config(1), 4); TcpPeer split = splitPeer(shared, sharedFirst)) {
            // Sorting first, the shared side opens a socket the split one refuses to read; sorting second, it waits and refuses the split socket.
            shared.qp.modifyToRtr(split.qp.localInfo());
            VerbsException e = assertThrows(VerbsException.class, () -> split.qp.modifyToRtr(shared.qp.localInfo()));
            assertTrue(e.getMessage().contains("JCCL_TCP_SHARED_SOCKETS differs"), e.getMessage());
            assertEquals(QpState.INIT, split.qp.state());
        }
    }

    /** A split peer whose address sorts after {@code shared}'s when {@code after} (ports are the kernel's: try a few). */
    private static TcpPeer splitPeer(TcpPeer shared, boolean after) {
        for (int i = 0; ; i++) {
            TcpPeer p = new TcpPeer(TcpPeer.config(1, "JCCL_TCP_SHARED_SOCKETS", "0"), 4);
            if ((shared.qp.localInfo().gid().compareTo(p.qp.localInfo().gid()) < 0) == after || i == 50) return p;
            p.close();
        }
    }
}
