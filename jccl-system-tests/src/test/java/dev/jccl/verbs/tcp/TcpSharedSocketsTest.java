package dev.jccl.verbs.tcp;

import dev.jccl.config.Config;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QueuePair;
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

import java.util.ArrayList;
import java.util.List;

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
            TcpPeer acceptor = sendingBeforeTheSocketsExist(roles);
            WorkCompletion wc = acceptor.awaitOne();
            assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc.toString());
            assertTrue(wc.detail().contains("did not open lane 0 within"), wc.detail());
            assertTrue(wc.detail().contains(roles[0].qp.localInfo().gid()), wc.detail());
            assertEquals(QpState.ERR, acceptor.qp.state());
        }
    }

    @Test
    void anAcceptorsProbeNoticesAnOpenerThatGoesBeforeOpening() {
        try (TcpPeer x = new TcpPeer(TcpPeer.config(1), 4); TcpPeer y = new TcpPeer(TcpPeer.config(1), 4)) {
            TcpPeer[] roles = TcpPeer.byRole(x, y);
            TcpPeer acceptor = sendingBeforeTheSocketsExist(roles);
            roles[0].close();
            WorkCompletion wc = acceptor.awaitOne();
            assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc.toString());
            // Only the probe says this; waiting out JCCL_TIMEOUT says "did not open lane 0 within".
            assertTrue(wc.detail().contains("went before opening lane 0"), wc.detail());
        }
    }

    /** The acceptor of {opener, acceptor} at RTS with a 64 B SEND posted, while the opener has not connected. */
    private static TcpPeer sendingBeforeTheSocketsExist(TcpPeer[] roles) {
        TcpPeer acceptor = roles[1];
        MemoryRegion buf = acceptor.region(64);
        acceptor.qp.modifyToRtr(roles[0].qp.localInfo());
        acceptor.qp.modifyToRts();
        assertTrue(acceptor.qp.postSend(SendWr.send(1, buf.sge(0, 64))));
        return acceptor;
    }

    @ParameterizedTest(name = "the shared side sorts first: {0}")
    @ValueSource(booleans = {true, false})
    void sidesThatDisagreeOnSharingAreRefusedNamingTheKnob(boolean sharedFirst) {
        Config sharing = TcpPeer.config(1);
        Config splitting = TcpPeer.config(1, "JCCL_TCP_SHARED_SOCKETS", "0");
        TcpPeer[] pair = sharedFirst ? sortedPair(sharing, splitting) : sortedPair(splitting, sharing);
        try (TcpPeer shared = pair[sharedFirst ? 0 : 1]; TcpPeer split = pair[sharedFirst ? 1 : 0]) {
            // Sorting first, the shared side opens a socket the split one refuses to read; sorting second, it waits and refuses the split socket.
            shared.qp.modifyToRtr(split.qp.localInfo());
            VerbsException e = assertThrows(VerbsException.class, () -> split.qp.modifyToRtr(shared.qp.localInfo()));
            assertTrue(e.getMessage().contains("JCCL_TCP_SHARED_SOCKETS differs"), e.getMessage());
            assertEquals(QpState.INIT, split.qp.state());
        }
    }

    /**
     * {a with config {@code lower}, b with config {@code higher}} where a's address sorts first. The kernel
     * picks the ports, so peers of both configs are made in turn until some pair is in that order; the others are closed.
     */
    private static TcpPeer[] sortedPair(Config lower, Config higher) {
        List<TcpPeer> lows = new ArrayList<>();
        List<TcpPeer> highs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            lows.add(new TcpPeer(lower, 4));
            highs.add(new TcpPeer(higher, 4));
            for (TcpPeer a : lows) {
                for (TcpPeer b : highs) {
                    if (a.qp.localInfo().gid().compareTo(b.qp.localInfo().gid()) < 0) {
                        for (TcpPeer p : lows) if (p != a) p.close();
                        for (TcpPeer p : highs) if (p != b) p.close();
                        return new TcpPeer[] {a, b};
                    }
                }
            }
        }
        throw new AssertionError("no two listener ports in the order wanted");
    }

    @Test
    void anOpenerWaitsUpToTheTimeoutForTheAcceptorsFirstFrameNotTheHeartbeatSilence() throws InterruptedException {
        // 15 heartbeats of 50 ms: the acceptor's first frame comes well after that silence bound.
        try (TcpPeer x = new TcpPeer(TcpPeer.config(1, "JCCL_HEARTBEAT", "50ms"), 4); TcpPeer y = new TcpPeer(TcpPeer.config(1, "JCCL_HEARTBEAT", "50ms"), 4)) {
            TcpPeer[] roles = TcpPeer.byRole(x, y);
            roles[0].qp.modifyToRtr(roles[1].qp.localInfo());
            roles[0].qp.modifyToRts();
            Thread.sleep(1_500);
            assertEquals(QpState.RTS, roles[0].qp.state(), "the opener is still connected");
            roles[1].qp.modifyToRtr(roles[0].qp.localInfo());
            roles[1].qp.modifyToRts();
            exchange(roles[0], roles[0].qp, roles[1], roles[1].qp);
        }
    }

    @Test
    void anAcceptorInErrBeforeTheSocketsComeRefusesThemAndTheOpenerIsTold() {
        try (TcpPeer x = new TcpPeer(TcpPeer.config(1), 4); TcpPeer y = new TcpPeer(TcpPeer.config(1), 4)) {
            TcpPeer[] roles = TcpPeer.byRole(x, y);
            roles[1].qp.modifyToRtr(roles[0].qp.localInfo());
            roles[1].qp.modifyToError();
            VerbsException e = assertThrows(VerbsException.class, () -> roles[0].qp.modifyToRtr(roles[1].qp.localInfo()));
            assertTrue(e.getMessage().contains("is in state ERR"), e.getMessage());
        }
    }

    @Test
    void laneCountsThatDifferFailBothSidesAtOnceNamingTheKnob() {
        TcpPeer[] pair = sortedPair(TcpPeer.config(1), TcpPeer.config(2)); // the one with 2 lanes waits for the other to open them
        try (TcpPeer narrow = pair[0]; TcpPeer acceptor = pair[1]) {
            MemoryRegion buf = acceptor.region(64);
            acceptor.qp.modifyToRtr(narrow.qp.localInfo());
            acceptor.qp.modifyToRts();
            assertTrue(acceptor.qp.postSend(SendWr.send(1, buf.sge(0, 64))));
            VerbsException e = assertThrows(VerbsException.class, () -> narrow.qp.modifyToRtr(acceptor.qp.localInfo()));
            assertTrue(e.getMessage().contains("JCCL_QPS_PER_CONNECTION differs"), e.getMessage());
            WorkCompletion wc = acceptor.awaitOne();
            assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc.toString());
            assertTrue(wc.detail().contains("JCCL_QPS_PER_CONNECTION differs"), wc.detail());
        }
    }

    @Test
    void twoQueuePairsOfOneContextShareSocketsAndOneConnectedToItselfSplitsThem() {
        try (TcpPeer x = new TcpPeer(TcpPeer.config(1), 8)) {
            QueuePair second = x.pd.createQp(new QpInitAttr(x.cq, x.cq, 4, 4, false));
            second.modifyToInit();
            x.qp.modifyToRtr(second.localInfo());
            second.modifyToRtr(x.qp.localInfo());
            x.qp.modifyToRts();
            second.modifyToRts();
            assertTrue(x.qp.describe().endsWith("(1 socket, shared)"), x.qp.describe());
            exchange(x, x.qp, x, second);
            exchange(x, second, x, x.qp);
            QueuePair self = x.pd.createQp(new QpInitAttr(x.cq, x.cq, 4, 4, false));
            self.modifyToInit();
            self.modifyToRtr(self.localInfo());
            self.modifyToRts();
            assertTrue(self.describe().endsWith("(1 socket each way)"), self.describe());
            exchange(x, self, x, self);
        }
    }

    /** A 7 B SEND from {@code sender} (a queue pair of {@code from}) to {@code receiver} (one of {@code to}). */
    private static void exchange(TcpPeer from, QueuePair sender, TcpPeer to, QueuePair receiver) {
        MemoryRegion src = from.region(7);
        MemoryRegion dst = to.region(7);
        TcpPeer.fill(src.segment(), 3);
        assertTrue(receiver.postRecv(new RecvWr(40, dst.sge(0, 7))));
        assertTrue(sender.postSend(SendWr.send(41, src.sge(0, 7))));
        WorkCompletion first = to.awaitOne();
        WorkCompletion second = from.awaitOne(); // the same queue when to is from
        assertEquals(WcStatus.SUCCESS, first.status(), first.toString());
        assertEquals(WcStatus.SUCCESS, second.status(), second.toString());
        assertEquals(81, first.wrId() + second.wrId());
        assertEquals(-1, src.segment().mismatch(dst.segment()));
    }
}
