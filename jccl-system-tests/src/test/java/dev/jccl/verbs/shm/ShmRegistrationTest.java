package dev.jccl.verbs.shm;

import dev.jccl.testkit.PairBed;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

import static dev.jccl.testkit.PairBed.awaitOne;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Shared allocation, the registration cache, and the refusal of remote rights on private memory. */
@Timeout(30)
@Tag("unit")
class ShmRegistrationTest {

    @Test
    void registrationCacheReturnsTheSameRegionUntilTheLastDeregister() throws Exception {
        try (PairBed bed = PairBed.connected("shm", Map.of(), 4)) {
            MemorySegment seg = bed.pdB.allocate(1 << 16);
            Set<Access> rw = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE);
            MemoryRegion first = bed.pdB.register(seg, rw);
            MemoryRegion second = bed.pdB.register(seg, EnumSet.of(Access.REMOTE_WRITE)); // subset of rights: a hit
            assertSame(first, second);
            MemoryRegion wider = bed.pdB.register(seg, EnumSet.of(Access.REMOTE_READ)); // a new right: a new region
            assertNotEquals(first.rkey(), wider.rkey());

            MemoryRegion src = PairBed.shared(bed.pdA, 16);
            bed.pdB.deregister(second); // one reference left: still valid for peers
            assertTrue(bed.qpA.postSend(SendWr.write(1, src.sge(0, 16), first.address(), first.rkey())));
            assertEquals(WcStatus.SUCCESS, awaitOne(bed.cqA).status());
            bed.pdB.deregister(first); // last reference: the rkey is withdrawn
            assertThrows(VerbsException.class, () -> bed.pdB.deregister(first));
            assertTrue(bed.qpA.postSend(SendWr.write(2, src.sge(0, 16), first.address(), first.rkey())));
            WorkCompletion wc = awaitOne(bed.cqA);
            assertEquals(WcStatus.REM_ACCESS_ERR, wc.status(), wc::toString);
        }
    }

    @Test
    void privateMemoryIsRefusedForRemoteRightsButFineLocally() throws Exception {
        try (PairBed bed = PairBed.open("shm", Map.of(), 4); Arena arena = Arena.ofConfined()) {
            MemorySegment priv = arena.allocate(4096);
            VerbsException e = assertThrows(VerbsException.class,
                    () -> bed.pdA.register(priv, EnumSet.of(Access.REMOTE_WRITE)));
            assertTrue(e.getMessage().contains("private to this process"), e.getMessage());
            assertThrows(VerbsException.class, () -> bed.pdA.register(priv, EnumSet.of(Access.REMOTE_READ)));
            MemoryRegion local = bed.pdA.register(priv, EnumSet.of(Access.LOCAL_WRITE));
            assertEquals(priv.address(), local.address());
        }
    }

    @Test
    void slicesOfASharedAllocationMayBeExposed() throws Exception {
        try (PairBed bed = PairBed.connected("shm", Map.of(), 4)) {
            MemorySegment whole = bed.pdB.allocate(8192);
            MemoryRegion half = bed.pdB.register(whole.asSlice(4096, 4096), EnumSet.of(Access.REMOTE_WRITE));
            MemoryRegion src = PairBed.shared(bed.pdA, 8);
            src.segment().fill((byte) 0x7F);
            assertTrue(bed.qpA.postSend(SendWr.write(1, src.sge(0, 8), half.address() + 8, half.rkey())));
            assertEquals(WcStatus.SUCCESS, awaitOne(bed.cqA).status());
            assertEquals(0x7F, whole.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 4096 + 8));
            assertEquals(0, whole.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 4096 + 7));
        }
    }

    @Test
    void zeroByteAllocationRegistersAndClosingTheDomainFreesIt() throws Exception {
        try (PairBed bed = PairBed.open("shm", Map.of(), 4)) {
            MemorySegment empty = bed.pdA.allocate(0);
            assertEquals(0, empty.byteSize());
            bed.pdA.register(empty, EnumSet.of(Access.REMOTE_WRITE));
            MemorySegment some = bed.pdA.allocate(100);
            bed.pdA.close();
            assertThrows(IllegalStateException.class, () -> some.get(java.lang.foreign.ValueLayout.JAVA_BYTE, 0));
            assertThrows(VerbsException.class, () -> bed.pdA.allocate(1));
        }
    }
}
