package dev.jccl.testkit;

import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The RC state machine: the legal path works; illegal steps throw and leave the state alone. */
public abstract class QpStateChecks extends ConformanceCheck {
    protected QpStateChecks(ProviderTarget target) {
        super(target);
    }

    @Test
    @Timeout(30)
    void theLegalPathReachesRtsAndCarriesTraffic() throws Exception {
        try (EndpointPair pair = EndpointPair.open(target, EndpointPair.Options.DEFAULT)) {
            QueuePair a = pair.a().qp();
            QueuePair b = pair.b().qp();
            assertEquals(QpState.RESET, a.state());
            a.modifyToInit();
            b.modifyToInit();
            assertEquals(QpState.INIT, a.state());
            CompletableFuture<Void> bRtr = CompletableFuture.runAsync(() -> b.modifyToRtr(a.localInfo()));
            a.modifyToRtr(b.localInfo());
            bRtr.get(30, TimeUnit.SECONDS);
            assertEquals(QpState.RTR, a.state());
            assertEquals(QpState.RTR, b.state());
            a.modifyToRts();
            b.modifyToRts();
            assertEquals(QpState.RTS, a.state());
            assertEquals(QpState.RTS, b.state());
            sendOneMessage(pair);
        }
    }

    @Test
    @Timeout(30)
    void resetToRtrIsRefused() {
        try (EndpointPair pair = EndpointPair.open(target, EndpointPair.Options.DEFAULT)) {
            QueuePair a = pair.a().qp();
            ConnectInfo peer = pair.b().qp().localInfo();
            assertThrows(IllegalStateException.class, () -> a.modifyToRtr(peer), "RESET -> RTR");
            assertEquals(QpState.RESET, a.state());
            assertThrows(IllegalStateException.class, a::modifyToRts, "RESET -> RTS");
            assertEquals(QpState.RESET, a.state());
        }
    }

    @Test
    @Timeout(30)
    void initToRtsIsRefused() {
        try (EndpointPair pair = EndpointPair.open(target, EndpointPair.Options.DEFAULT)) {
            QueuePair a = pair.a().qp();
            a.modifyToInit();
            assertThrows(IllegalStateException.class, a::modifyToRts, "INIT -> RTS");
            assertEquals(QpState.INIT, a.state());
            assertThrows(IllegalStateException.class, a::modifyToInit, "INIT -> INIT");
            assertEquals(QpState.INIT, a.state());
        }
    }

    @Test
    @Timeout(30)
    void rtsBackwardsIsRefusedAndTheConnectionKeepsWorking() {
        try (EndpointPair pair = connected()) {
            QueuePair a = pair.a().qp();
            assertThrows(IllegalStateException.class, a::modifyToInit, "RTS -> INIT");
            assertEquals(QpState.RTS, a.state());
            assertThrows(IllegalStateException.class, () -> a.modifyToRtr(pair.b().qp().localInfo()), "RTS -> RTR");
            assertEquals(QpState.RTS, a.state());
            sendOneMessage(pair);
        }
    }

    @Test
    @Timeout(30)
    void rtrWithAnotherProvidersInfoIsRefused() {
        try (EndpointPair pair = EndpointPair.open(target, EndpointPair.Options.DEFAULT)) {
            QueuePair a = pair.a().qp();
            a.modifyToInit();
            ConnectInfo real = pair.b().qp().localInfo();
            ConnectInfo foreign = new ConnectInfo(real.provider() + "-other", real.qpn(), real.lid(), real.gid(), real.psn());
            assertThrows(VerbsException.class, () -> a.modifyToRtr(foreign), "RTR with info of provider " + foreign.provider());
            assertEquals(QpState.INIT, a.state());
        }
    }

    @Test
    @Timeout(30)
    void postingASendInInitIsRefused() {
        try (EndpointPair pair = EndpointPair.open(target, EndpointPair.Options.DEFAULT)) {
            QueuePair a = pair.a().qp();
            MemoryRegion src = pair.a().allocateRegion(64);
            assertThrows(VerbsException.class, () -> a.postSend(SendWr.send(1, src.sge(0, 64))), "send in RESET");
            a.modifyToInit();
            assertThrows(VerbsException.class, () -> a.postSend(SendWr.send(2, src.sge(0, 64))), "send in INIT");
            assertEquals(QpState.INIT, a.state());
            pair.a().sends().expectNone(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    @Test
    @Timeout(30)
    void receivesArePostableFromInitButNotInReset() {
        try (EndpointPair pair = EndpointPair.open(target, EndpointPair.Options.DEFAULT)) {
            MemoryRegion dst = pair.b().allocateRegion(64);
            QueuePair b = pair.b().qp();
            assertThrows(VerbsException.class, () -> b.postRecv(new RecvWr(1, dst.sge(0, 64))), "recv in RESET");
            assertEquals(QpState.RESET, b.state());
            b.modifyToInit();
            post(b, new RecvWr(2, dst.sge(0, 64)));
            pair.a().qp().modifyToInit();
            EndpointPair.connectInitialized(pair.a().qp(), b, EndpointPair.CONNECT_TIMEOUT_NS);
            MemoryRegion src = pair.a().allocateRegion(64);
            Patterns.fill(src.segment(), 21);
            post(pair.a().qp(), SendWr.send(3, src.sge(0, 64)));
            pair.a().sends().nextSuccess(3);
            WorkCompletion wc = pair.b().recvs().nextSuccess(2);
            assertEquals(64, wc.byteLen());
            Patterns.assertPattern("receive posted in INIT", dst.segment(), 21, 0);
        }
    }

    @Test
    @Timeout(30)
    void errorFlushesEverythingAndIsIdempotent() {
        try (EndpointPair pair = connected()) {
            QueuePair a = pair.a().qp();
            MemoryRegion buf = pair.a().allocateRegion(3 * 64);
            for (int i = 0; i < 3; i++) post(a, new RecvWr(10 + i, buf.sge(64L * i, 64)));
            a.modifyToError();
            assertEquals(QpState.ERR, a.state());
            List<WorkCompletion> flushed = pair.a().recvs().next(3, CompletionReader.DEFAULT_WAIT_NS);
            for (int i = 0; i < 3; i++) {
                assertEquals(10 + i, flushed.get(i).wrId(), "flush order: " + flushed);
                assertEquals(WcStatus.WR_FLUSH_ERR, flushed.get(i).status(), flushed.get(i).toString());
            }
            a.modifyToError();
            assertEquals(QpState.ERR, a.state());
            pair.a().recvs().expectNone(TimeUnit.MILLISECONDS.toNanos(50));
            post(a, SendWr.send(20, buf.sge(0, 64)));
            pair.a().sends().nextWithStatus(20, WcStatus.WR_FLUSH_ERR);
        }
    }

    private static void sendOneMessage(EndpointPair pair) {
        MemoryRegion src = pair.a().allocateRegion(256);
        MemoryRegion dst = pair.b().allocateRegion(256);
        Patterns.fill(src.segment(), 22);
        post(pair.b().qp(), new RecvWr(7, dst.sge(0, 256)));
        post(pair.a().qp(), SendWr.send(8, src.sge(0, 256)));
        pair.a().sends().nextSuccess(8);
        WorkCompletion wc = pair.b().recvs().nextSuccess(7);
        assertEquals(WcOpcode.RECV, wc.opcode());
        assertEquals(256, wc.byteLen());
        Patterns.assertPattern("message after the state checks", dst.segment(), 22, 0);
    }
}
