package dev.jccl.verbs.shm;

import dev.jccl.testkit.PairBed;
import dev.jccl.util.Segments;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Map;

import static dev.jccl.testkit.PairBed.awaitOne;
import static dev.jccl.testkit.PairBed.shared;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Requests the peer must refuse: REM_ACCESS_ERR (or LOC_LEN_ERR) with the target memory untouched. */
@Timeout(30)
@Tag("unit")
class ShmRemoteAccessTest {
    private PairBed bed;
    private MemoryRegion src;
    private MemoryRegion target;

    @BeforeEach
    void connect() throws Exception {
        bed = PairBed.connected("shm", Map.of(), 8);
        MemorySegment s = bed.pdA.allocate(4096);
        Segments.fillPattern(s, 1);
        src = bed.pdA.register(s, EnumSet.of(Access.LOCAL_WRITE));
        target = shared(bed.pdB, 4096, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
    }

    @AfterEach
    void close() throws Exception {
        bed.close();
    }

    @Test
    void unknownRkeyIsRefused() {
        int badKey = target.rkey() ^ 0x5A5A5A5A;
        assertRefused(SendWr.write(1, src.sge(0, 16), target.address(), badKey), "not registered");
    }

    @Test
    void writePastTheRegionEndIsRefused() {
        assertRefused(SendWr.write(1, src.sge(0, 16), target.address() + 4096 - 15, target.rkey()), "outside the region");
    }

    @Test
    void writeBeforeTheRegionStartIsRefused() {
        assertRefused(SendWr.write(1, src.sge(0, 16), target.address() - 1, target.rkey()), "outside the region");
    }

    @Test
    void writeWithImmIntoReadOnlyRegionIsRefusedAndKeepsTheReceive() {
        MemoryRegion readOnly = shared(bed.pdB, 4096, Access.REMOTE_READ);
        assertTrue(bed.qpB.postRecv(new RecvWr(3, dev.jccl.verbs.Sge.EMPTY)));
        assertRefused(SendWr.writeWithImm(1, src.sge(0, 16), readOnly.address(), readOnly.rkey(), 7), "REMOTE_WRITE");
        assertUntouched(readOnly.segment());
        // The receive was not consumed; it is flushed when qpB follows its peer into ERR.
        WorkCompletion rc = awaitOne(bed.cqB);
        assertEquals(WcStatus.WR_FLUSH_ERR, rc.status(), rc::toString);
        assertEquals(3, rc.wrId());
    }

    @Test
    void readWithoutRemoteReadIsRefused() {
        MemoryRegion sink = shared(bed.pdA, 64, Access.LOCAL_WRITE);
        assertRefused(SendWr.read(1, sink.sge(0, 64), target.address(), target.rkey()), "REMOTE_READ");
        assertUntouched(sink.segment());
    }

    @Test
    void deregisteredRegionIsRefused() {
        bed.pdB.deregister(target);
        assertRefused(SendWr.write(1, src.sge(0, 16), target.address(), target.rkey()), "not registered");
    }

    @Test
    void regionOfAnotherDomainIsRefused() {
        dev.jccl.verbs.ProtectionDomain otherPd = bed.ctxB.allocPd();
        MemoryRegion foreign = shared(otherPd, 4096, Access.REMOTE_WRITE);
        assertRefused(SendWr.write(1, src.sge(0, 16), foreign.address(), foreign.rkey()), "another protection domain");
        assertUntouched(foreign.segment());
    }

    @Test
    void sendLargerThanReceiveBufferFailsOnBothSides() {
        MemoryRegion small = shared(bed.pdB, 64, Access.LOCAL_WRITE);
        assertTrue(bed.qpB.postRecv(new RecvWr(4, small.sge(0, 8))));
        assertTrue(bed.qpA.postSend(SendWr.send(2, src.sge(0, 9))));
        WorkCompletion sc = awaitOne(bed.cqA);
        assertEquals(WcStatus.REM_INV_REQ_ERR, sc.status(), sc::toString);
        WorkCompletion rc = awaitOne(bed.cqB);
        assertEquals(WcStatus.LOC_LEN_ERR, rc.status(), rc::toString);
        assertEquals(4, rc.wrId());
        assertTrue(rc.detail().contains("9 bytes"), rc::detail);
        assertUntouched(small.segment());
        assertEquals(QpState.ERR, bed.qpA.state());
        assertEquals(QpState.ERR, bed.qpB.state());
    }

    /** Posts {@code wr}; expects REM_ACCESS_ERR naming {@code why}, the target untouched, the QP in ERR. */
    private void assertRefused(SendWr wr, String why) {
        assertTrue(bed.qpA.postSend(wr));
        WorkCompletion wc = awaitOne(bed.cqA);
        assertEquals(WcStatus.REM_ACCESS_ERR, wc.status(), wc::toString);
        assertEquals(wr.wrId(), wc.wrId());
        assertTrue(wc.detail().contains(why), wc::detail);
        assertUntouched(target.segment());
        assertEquals(QpState.ERR, bed.qpA.state());
        // Later requests are flushed, not executed.
        assertTrue(bed.qpA.postSend(SendWr.write(2, src.sge(0, 16), target.address(), target.rkey())));
        assertEquals(WcStatus.WR_FLUSH_ERR, awaitOne(bed.cqA).status());
        assertUntouched(target.segment());
    }

    private static void assertUntouched(MemorySegment seg) {
        for (long i = 0; i < seg.byteSize(); i++) {
            assertEquals(0, seg.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " of the target was written");
        }
    }
}
