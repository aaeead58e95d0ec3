package dev.jccl.verbs.tcp;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Back-pressure is a value, contract breaches are exceptions that change nothing. */
@Timeout(30)
@Tag("unit")
class TcpLocalContractTest {
    @Test
    void fullSendQueueReturnsFalseUntilCompletionsFreeIt() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 4); TcpPeer b = new TcpPeer(TcpPeer.config(1), 4)) {
            // A is ready to send; B stays in INIT, so nothing is acknowledged yet.
            a.qp.modifyToRtr(b.qp.localInfo());
            a.qp.modifyToRts();
            MemoryRegion src = a.region(64);
            MemoryRegion dst = b.region(64);
            for (int i = 0; i < 4; i++) assertTrue(a.qp.postSend(SendWr.write(i, src.sge(0, 64), dst.address(), dst.rkey())));
            assertFalse(a.qp.postSend(SendWr.write(4, src.sge(0, 64), dst.address(), dst.rkey())), "5th of depth 4");
            assertFalse(a.qp.postSend(SendWr.write(4, src.sge(0, 64), dst.address(), dst.rkey()).unsignaled()));
            a.assertNoCompletion(20);
            b.qp.modifyToRtr(a.qp.localInfo()); // now B executes and acknowledges
            for (int i = 0; i < 4; i++) assertEquals(i, a.awaitOne().wrId());
            assertTrue(a.qp.postSend(SendWr.write(4, src.sge(0, 64), dst.address(), dst.rkey())));
            assertEquals(WcStatus.SUCCESS, a.awaitOne().status());
        }
    }

    @Test
    void fullReceiveQueueReturnsFalse() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 3)) {
            MemoryRegion buf = a.region(64);
            for (int i = 0; i < 3; i++) assertTrue(a.qp.postRecv(new RecvWr(i, buf.sge(0, 64))));
            assertFalse(a.qp.postRecv(new RecvWr(3, buf.sge(0, 64))));
        }
    }

    @Test
    void illegalTransitionsAreRefusedNamingBothStates() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 4); TcpPeer b = new TcpPeer(TcpPeer.config(1), 4)) {
            IllegalStateException twice = assertThrows(IllegalStateException.class, a.qp::modifyToInit);
            assertTrue(twice.getMessage().contains("INIT -> INIT"), twice.getMessage());
            IllegalStateException early = assertThrows(IllegalStateException.class, a.qp::modifyToRts);
            assertTrue(early.getMessage().contains("INIT -> RTS"), early.getMessage());
            var fresh = a.pd.createQp(QpInitAttr.of(a.cq, 4));
            IllegalStateException fromReset = assertThrows(IllegalStateException.class, () -> fresh.modifyToRtr(b.qp.localInfo()));
            assertTrue(fromReset.getMessage().contains("RESET -> RTR"), fromReset.getMessage());
            assertEquals(QpState.RESET, fresh.state());
            TcpPeer.connect(a, b);
            assertThrows(IllegalStateException.class, () -> a.qp.modifyToRtr(b.qp.localInfo()));
            assertEquals(QpState.RTS, a.qp.state());
        }
    }

    @Test
    void postingInTheWrongStateThrows() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 4)) {
            MemoryRegion buf = a.region(64);
            VerbsException e = assertThrows(VerbsException.class, () -> a.qp.postSend(SendWr.send(1, buf.sge(0, 8))));
            assertTrue(e.getMessage().contains("needs RTS"), e.getMessage());
            var fresh = a.pd.createQp(QpInitAttr.of(a.cq, 4));
            assertThrows(VerbsException.class, () -> fresh.postRecv(new RecvWr(1, buf.sge(0, 8))));
        }
    }

    @Test
    void unknownLkeyAndOutOfRegionSgeThrowAndChangeNothing() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 2); TcpPeer b = new TcpPeer(TcpPeer.config(1), 2)) {
            TcpPeer.connect(a, b);
            MemoryRegion src = a.region(64);
            MemoryRegion dst = b.region(64);
            Sge unknown = new Sge(src.address(), 8, src.lkey() + 1);
            Sge outside = new Sge(src.address() + 60, 8, src.lkey());
            VerbsException e1 = assertThrows(VerbsException.class, () -> a.qp.postSend(SendWr.write(1, unknown, dst.address(), dst.rkey())));
            assertTrue(e1.getMessage().contains("not registered"), e1.getMessage());
            VerbsException e2 = assertThrows(VerbsException.class, () -> a.qp.postSend(SendWr.write(1, outside, dst.address(), dst.rkey())));
            assertTrue(e2.getMessage().contains("outside its region"), e2.getMessage());
            assertThrows(VerbsException.class, () -> b.qp.postRecv(new RecvWr(1, new Sge(dst.address(), 8, dst.lkey() ^ 1))));
            // Nothing was consumed: the full depth is still available and the queue pair still works.
            for (int i = 0; i < 2; i++) assertTrue(a.qp.postSend(SendWr.write(i, src.sge(0, 64), dst.address(), dst.rkey())));
            for (int i = 0; i < 2; i++) assertEquals(WcStatus.SUCCESS, a.awaitOne().status());
            assertEquals(QpState.RTS, a.qp.state());
        }
    }

    @Test
    void readIntoMemoryWithoutLocalWriteIsRefused() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 2); TcpPeer b = new TcpPeer(TcpPeer.config(1), 2)) {
            TcpPeer.connect(a, b);
            MemoryRegion readOnly = a.region(64, EnumSet.noneOf(Access.class));
            MemoryRegion src = b.region(64);
            assertThrows(VerbsException.class, () -> a.qp.postSend(SendWr.read(1, readOnly.sge(0, 64), src.address(), src.rkey())));
        }
    }

    @Test
    void confinedAndHeapMemoryCannotBeRegistered() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 2); Arena confined = Arena.ofConfined()) {
            VerbsException e = assertThrows(VerbsException.class,
                    () -> a.pd.register(confined.allocate(64), EnumSet.allOf(Access.class)));
            assertTrue(e.getMessage().contains("confined"), e.getMessage());
            VerbsException heap = assertThrows(VerbsException.class,
                    () -> a.pd.register(MemorySegment.ofArray(new byte[64]), EnumSet.of(Access.LOCAL_WRITE)));
            assertTrue(heap.getMessage().contains("heap memory"), heap.getMessage());
        }
    }

    @Test
    void errStateFlushesNewWorkAndConnectInfoNamesTheListener() {
        try (TcpPeer a = new TcpPeer(TcpPeer.config(1), 4); TcpPeer b = new TcpPeer(TcpPeer.config(1), 4)) {
            ConnectInfo info = a.qp.localInfo();
            assertEquals("tcp", info.provider());
            assertEquals(0, info.lid());
            assertTrue(info.gid().startsWith("127.0.0.1:"), info.gid());
            TcpPeer.connect(a, b);
            MemoryRegion buf = a.region(64);
            a.qp.modifyToError();
            assertTrue(a.qp.postRecv(new RecvWr(5, buf.sge(0, 64))));
            assertTrue(a.qp.postSend(SendWr.send(6, buf.sge(0, 64))));
            WorkCompletion r = a.awaitOne();
            WorkCompletion s = a.awaitOne();
            assertEquals(WcStatus.WR_FLUSH_ERR, r.status());
            assertEquals(WcStatus.WR_FLUSH_ERR, s.status());
            b.awaitState(QpState.ERR);
        }
    }
}
