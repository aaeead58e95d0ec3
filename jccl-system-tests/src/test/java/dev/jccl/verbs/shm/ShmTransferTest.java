package dev.jccl.verbs.shm;

import dev.jccl.testkit.PairBed;
import dev.jccl.util.Segments;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.Map;

import static dev.jccl.testkit.PairBed.assertNoCompletion;
import static dev.jccl.testkit.PairBed.awaitOne;
import static dev.jccl.testkit.PairBed.shared;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every opcode between two contexts, at sizes 0, 1, a prime and 64 MiB, checked byte for byte. */
@Timeout(60)
@Tag("unit")
class ShmTransferTest {
    private static final long SEED = 0x5EED;
    private static final int GUARD = 64; // bytes past the target that must stay zero
    private PairBed bed;

    @BeforeEach
    void connect() throws Exception {
        bed = PairBed.connected("shm", Map.of(), 8);
    }

    @AfterEach
    void close() throws Exception {
        bed.close();
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 1_000_003, 64L << 20})
    void rdmaWriteLandsInPeerRegion(long bytes) {
        MemoryRegion src = filled(bed.pdA, bytes);
        MemoryRegion dst = shared(bed.pdB, bytes + GUARD, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        assertTrue(bed.qpA.postSend(SendWr.write(7, src.sge(0, bytes), dst.address(), dst.rkey())));
        WorkCompletion wc = awaitOne(bed.cqA);
        assertEquals(WcStatus.SUCCESS, wc.status(), wc::toString);
        assertEquals(WcOpcode.RDMA_WRITE, wc.opcode());
        assertEquals(7, wc.wrId());
        assertEquals(bytes, wc.byteLen());
        assertPattern(dst.segment(), bytes);
        assertNoCompletion(bed.cqB); // one-sided: the target sees nothing
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 1_000_003, 64L << 20})
    void writeWithImmConsumesAReceive(long bytes) {
        MemoryRegion src = filled(bed.pdA, bytes);
        MemoryRegion dst = shared(bed.pdB, bytes + GUARD, Access.LOCAL_WRITE, Access.REMOTE_WRITE);
        assertTrue(bed.qpB.postRecv(new RecvWr(99, Sge.EMPTY)));
        assertTrue(bed.qpA.postSend(SendWr.writeWithImm(8, src.sge(0, bytes), dst.address(), dst.rkey(), 0xC0FFEE)));
        assertEquals(WcStatus.SUCCESS, awaitOne(bed.cqA).status());
        WorkCompletion rc = awaitOne(bed.cqB);
        assertEquals(WcStatus.SUCCESS, rc.status(), rc::toString);
        assertEquals(WcOpcode.RECV_RDMA_WITH_IMM, rc.opcode());
        assertEquals(99, rc.wrId());
        assertEquals(0xC0FFEE, rc.imm());
        assertTrue(rc.hasImm());
        assertEquals(bytes, rc.byteLen());
        assertPattern(dst.segment(), bytes);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 1_000_003, 64L << 20})
    void rdmaReadFetchesPeerRegion(long bytes) {
        MemoryRegion src = filled(bed.pdB, bytes, Access.REMOTE_READ);
        MemoryRegion dst = shared(bed.pdA, bytes + GUARD, Access.LOCAL_WRITE);
        assertTrue(bed.qpA.postSend(SendWr.read(9, dst.sge(0, bytes), src.address(), src.rkey())));
        WorkCompletion wc = awaitOne(bed.cqA);
        assertEquals(WcStatus.SUCCESS, wc.status(), wc::toString);
        assertEquals(WcOpcode.RDMA_READ, wc.opcode());
        assertPattern(dst.segment(), bytes);
    }

    @ParameterizedTest
    @ValueSource(longs = {0, 1, 1_000_003, 64L << 20})
    void sendLandsInPostedReceive(long bytes) {
        MemoryRegion src = filled(bed.pdA, bytes);
        MemoryRegion dst = shared(bed.pdB, bytes + GUARD, Access.LOCAL_WRITE);
        assertTrue(bed.qpB.postRecv(new RecvWr(5, dst.sge(0, bytes + GUARD))));
        assertTrue(bed.qpA.postSend(SendWr.send(6, src.sge(0, bytes))));
        WorkCompletion sc = awaitOne(bed.cqA);
        assertEquals(WcStatus.SUCCESS, sc.status(), sc::toString);
        assertEquals(WcOpcode.SEND, sc.opcode());
        WorkCompletion rc = awaitOne(bed.cqB);
        assertEquals(WcStatus.SUCCESS, rc.status(), rc::toString);
        assertEquals(WcOpcode.RECV, rc.opcode());
        assertEquals(5, rc.wrId());
        assertEquals(bytes, rc.byteLen());
        assertPattern(dst.segment(), bytes);
    }

    @Test
    void privateMemoryServesAsLocalSourceAndSink() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment privateSrc = arena.allocate(4096);
            Segments.fillPattern(privateSrc, SEED);
            MemoryRegion src = bed.pdA.register(privateSrc, EnumSet.noneOf(Access.class));
            MemoryRegion remote = shared(bed.pdB, 4096, Access.REMOTE_WRITE, Access.REMOTE_READ);
            assertTrue(bed.qpA.postSend(SendWr.write(1, src.sge(0, 4096), remote.address(), remote.rkey())));
            assertEquals(WcStatus.SUCCESS, awaitOne(bed.cqA).status());
            MemoryRegion sink = bed.pdA.register(arena.allocate(4096), EnumSet.of(Access.LOCAL_WRITE));
            assertTrue(bed.qpA.postSend(SendWr.read(2, sink.sge(0, 4096), remote.address(), remote.rkey())));
            assertEquals(WcStatus.SUCCESS, awaitOne(bed.cqA).status());
            assertEquals(-1, Segments.firstPatternMismatch(sink.segment(), SEED));
        }
    }

    @Test
    void unsignaledWritesCompleteSilentlyAndInOrder() {
        MemoryRegion src = filled(bed.pdA, 64);
        MemoryRegion dst = shared(bed.pdB, 64, Access.REMOTE_WRITE);
        assertTrue(bed.qpA.postSend(SendWr.write(1, src.sge(0, 32), dst.address(), dst.rkey()).unsignaled()));
        assertNoCompletion(bed.cqA);
        assertTrue(bed.qpA.postSend(SendWr.write(2, src.sge(32, 32), dst.address() + 32, dst.rkey())));
        assertEquals(2, awaitOne(bed.cqA).wrId());
        assertEquals(-1, Segments.firstPatternMismatch(dst.segment(), SEED));
    }

    private static MemoryRegion filled(dev.jccl.verbs.ProtectionDomain pd, long bytes, Access... extra) {
        MemorySegment seg = pd.allocate(bytes);
        Segments.fillPattern(seg, SEED);
        EnumSet<Access> access = EnumSet.of(Access.LOCAL_WRITE);
        for (Access a : extra) access.add(a);
        return pd.register(seg, access);
    }

    /** The first {@code bytes} hold the pattern, and the guard bytes after them are still zero. */
    private static void assertPattern(MemorySegment target, long bytes) {
        assertEquals(-1, Segments.firstPatternMismatch(target.asSlice(0, bytes), SEED), "payload differs");
        for (long i = bytes; i < target.byteSize(); i++) {
            assertEquals(0, target.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " past the payload was written");
        }
    }
}
