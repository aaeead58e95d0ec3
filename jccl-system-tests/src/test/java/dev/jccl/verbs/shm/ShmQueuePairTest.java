package dev.jccl.verbs.shm;

import dev.jccl.testkit.PairBed;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.MemoryRegion;
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

import java.util.List;
import java.util.Map;

import static dev.jccl.testkit.PairBed.awaitAll;
import static dev.jccl.testkit.PairBed.awaitOne;
import static dev.jccl.testkit.PairBed.shared;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** State machine, queue depths, RNR and contract breaches. */
@Timeout(30)
@Tag("unit")
class ShmQueuePairTest {

    @Test
    void illegalTransitionsAreRefusedAndChangeNothing() throws Exception {
        try (PairBed bed = PairBed.open("shm", Map.of(), 4)) {
            assertThrows(IllegalStateException.class, () -> bed.qpA.modifyToRtr(bed.qpB.localInfo()));
            assertThrows(IllegalStateException.class, bed.qpA::modifyToRts);
            assertThrows(VerbsException.class, () -> bed.qpA.postRecv(new RecvWr(1, Sge.EMPTY)));
            assertEquals(QpState.RESET, bed.qpA.state());
            bed.qpA.modifyToInit();
            assertThrows(IllegalStateException.class, bed.qpA::modifyToInit);
            assertThrows(IllegalStateException.class, bed.qpA::modifyToRts);
            assertThrows(VerbsException.class, () -> bed.qpA.postSend(SendWr.send(1, Sge.EMPTY)));
            assertEquals(QpState.INIT, bed.qpA.state());
            bed.qpB.modifyToInit();
            bed.qpA.modifyToRtr(bed.qpB.localInfo());
            assertThrows(IllegalStateException.class, () -> bed.qpA.modifyToRtr(bed.qpB.localInfo()));
            bed.qpA.modifyToRts();
            assertEquals(QpState.RTS, bed.qpA.state());
            assertTrue(bed.qpA.describe().contains("via SHM " + bed.dir), bed.qpA.describe());
        }
    }

    @Test
    void crossProviderConnectIsRefused() throws Exception {
        try (PairBed bed = PairBed.open("shm", Map.of(), 4)) {
            bed.qpA.modifyToInit();
            ConnectInfo tcp = new ConnectInfo("tcp", 1, 0, "127.0.0.1:4000", 0);
            VerbsException e = assertThrows(VerbsException.class, () -> bed.qpA.modifyToRtr(tcp));
            assertTrue(e.getMessage().contains("'tcp'"), e.getMessage());
            assertEquals(QpState.INIT, bed.qpA.state());
        }
    }

    @Test
    void contractBreachesThrowAndLeaveTheQueuePairUsable() throws Exception {
        try (PairBed bed = PairBed.connected("shm", Map.of(), 4)) {
            MemoryRegion local = shared(bed.pdA, 128);
            MemoryRegion remote = shared(bed.pdB, 128, Access.REMOTE_WRITE, Access.REMOTE_READ);
            Sge unknownKey = new Sge(local.address(), 8, local.lkey() + 1);
            assertThrows(VerbsException.class, () -> bed.qpA.postSend(SendWr.write(1, unknownKey, remote.address(), remote.rkey())));
            Sge outside = new Sge(local.address() + 120, 16, local.lkey());
            assertThrows(VerbsException.class, () -> bed.qpA.postSend(SendWr.write(2, outside, remote.address(), remote.rkey())));
            // READ needs LOCAL_WRITE on the sink.
            assertThrows(VerbsException.class, () -> bed.qpA.postSend(SendWr.read(3, local.sge(0, 8), remote.address(), remote.rkey())));
            assertEquals(QpState.RTS, bed.qpA.state());
            PairBed.assertNoCompletion(bed.cqA);
            assertTrue(bed.qpA.postSend(SendWr.write(4, local.sge(0, 8), remote.address(), remote.rkey())));
            assertEquals(WcStatus.SUCCESS, awaitOne(bed.cqA).status());
        }
    }

    @Test
    void sendWithoutPostedReceiveFailsWithRnrAfterTheTimeout() throws Exception {
        try (PairBed bed = PairBed.connected("shm", Map.of("JCCL_RNR_TIMEOUT", "50ms"), 4)) {
            MemoryRegion src = shared(bed.pdA, 16);
            long start = System.nanoTime();
            assertTrue(bed.qpA.postSend(SendWr.send(1, src.sge(0, 16))));
            WorkCompletion wc = awaitOne(bed.cqA);
            assertEquals(WcStatus.RNR_RETRY_EXC, wc.status(), wc::toString);
            assertTrue(System.nanoTime() - start >= 50_000_000L, "RNR reported before JCCL_RNR_TIMEOUT");
            assertEquals(QpState.ERR, bed.qpA.state());
        }
    }

    @Test
    void sendWaitsForAReceivePostedLater() throws Exception {
        try (PairBed bed = PairBed.connected("shm", Map.of("JCCL_RNR_TIMEOUT", "10s"), 4)) {
            MemoryRegion src = shared(bed.pdA, 16);
            MemoryRegion dst = shared(bed.pdB, 16, Access.LOCAL_WRITE);
            assertTrue(bed.qpA.postSend(SendWr.send(1, src.sge(0, 16))));
            PairBed.assertNoCompletion(bed.cqA);
            assertTrue(bed.qpB.postRecv(new RecvWr(2, dst.sge(0, 16))));
            assertEquals(WcStatus.SUCCESS, awaitOne(bed.cqA).status());
            assertEquals(WcStatus.SUCCESS, awaitOne(bed.cqB).status());
        }
    }

    @Test
    void fullSendQueueReturnsFalseThenFlushes() throws Exception {
        try (PairBed bed = PairBed.connected("shm", Map.of("JCCL_RNR_TIMEOUT", "10s"), 2)) {
            MemoryRegion src = shared(bed.pdA, 16);
            assertTrue(bed.qpA.postSend(SendWr.send(1, src.sge(0, 16))));
            assertTrue(bed.qpA.postSend(SendWr.send(2, src.sge(0, 16))));
            assertFalse(bed.qpA.postSend(SendWr.send(3, src.sge(0, 16))), "third send on a depth-2 queue");
            bed.qpA.modifyToError();
            List<WorkCompletion> flushed = awaitAll(bed.cqA, 2, PairBed.AWAIT_NS);
            assertEquals(List.of(1L, 2L), flushed.stream().map(WorkCompletion::wrId).toList());
            flushed.forEach(wc -> assertEquals(WcStatus.WR_FLUSH_ERR, wc.status()));
        }
    }

    @Test
    void fullReceiveQueueReturnsFalse() throws Exception {
        try (PairBed bed = PairBed.connected("shm", Map.of(), 2)) {
            assertTrue(bed.qpB.postRecv(new RecvWr(1, Sge.EMPTY)));
            assertTrue(bed.qpB.postRecv(new RecvWr(2, Sge.EMPTY)));
            assertFalse(bed.qpB.postRecv(new RecvWr(3, Sge.EMPTY)));
            MemoryRegion remote = shared(bed.pdB, 8, Access.REMOTE_WRITE);
            assertTrue(bed.qpA.postSend(SendWr.writeWithImm(9, Sge.EMPTY, remote.address(), remote.rkey(), 1)));
            assertEquals(1, awaitOne(bed.cqB).wrId()); // a completed receive frees its slot
            assertTrue(bed.qpB.postRecv(new RecvWr(3, Sge.EMPTY)));
        }
    }

    @Test
    void receiveIntoPrivateMemoryIsRefused() throws Exception {
        try (PairBed bed = PairBed.connected("shm", Map.of(), 2);
             java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined()) {
            MemoryRegion priv = bed.pdB.register(arena.allocate(64), java.util.EnumSet.of(Access.LOCAL_WRITE));
            VerbsException e = assertThrows(VerbsException.class, () -> bed.qpB.postRecv(new RecvWr(1, priv.sge(0, 64))));
            assertTrue(e.getMessage().contains("private memory"), e.getMessage());
        }
    }

    @Test
    void postingInErrorFlushesAtOnce() throws Exception {
        try (PairBed bed = PairBed.connected("shm", Map.of(), 2)) {
            bed.qpA.modifyToError();
            bed.qpA.modifyToError(); // idempotent
            assertTrue(bed.qpA.postRecv(new RecvWr(1, Sge.EMPTY)));
            assertTrue(bed.qpA.postSend(SendWr.send(2, Sge.EMPTY)));
            List<WorkCompletion> wcs = awaitAll(bed.cqA, 2, PairBed.AWAIT_NS);
            assertEquals(2, wcs.size());
            wcs.forEach(wc -> assertEquals(WcStatus.WR_FLUSH_ERR, wc.status()));
        }
    }

    @Test
    void localRegionsAreRecheckedAfterDeregistrationAndEviction() throws Exception {
        try (PairBed bed = PairBed.connected("shm", Map.of(), 4)) {
            MemoryRegion remote = shared(bed.pdB, 64, Access.REMOTE_WRITE);
            MemoryRegion[] locals = new MemoryRegion[6];
            for (int i = 0; i < locals.length; i++) locals[i] = shared(bed.pdA, 64);
            for (int round = 0; round < 3; round++) { // more regions than the resolver remembers
                for (MemoryRegion local : locals) {
                    assertTrue(bed.qpA.postSend(SendWr.write(round, local.sge(0, 64), remote.address(), remote.rkey())));
                    assertEquals(WcStatus.SUCCESS, awaitOne(bed.cqA).status());
                }
            }
            bed.pdA.deregister(locals[5]);
            assertThrows(VerbsException.class,
                    () -> bed.qpA.postSend(SendWr.write(9, locals[5].sge(0, 64), remote.address(), remote.rkey())));
            assertEquals(QpState.RTS, bed.qpA.state());
        }
    }
}
