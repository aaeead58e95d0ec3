package dev.jccl.verbs.shm;

import dev.jccl.fuzz.FuzzCount;
import dev.jccl.fuzz.Guarded;
import dev.jccl.fuzz.Mutator;
import dev.jccl.fuzz.Tries;
import dev.jccl.testkit.PairBed;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static dev.jccl.verbs.shm.QpFileDescriptor.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer that writes garbage into the rings of a queue pair file: into the notification ring it
 * produces (the owner turns notifications into receive completions) or, as the owner, into the
 * receive ring the sender consumes. Every posted receive completes exactly once, a successful one
 * never claims more bytes than its buffer holds, a SEND lands only inside the file the sender mapped
 * and never past the sender's own memory, garbled notifications move no byte, and closing leaves no
 * file behind.
 */
@Tag("slow")
class ShmRingProperties {
    private static final String NOTIFY = "shm-rings (garbled notifications, peer to owner)";
    private static final String RECEIVES = "shm-rings (garbled receive ring, owner to sender)";
    private static final long[] NOTIFY_FIELDS = {NOTIFY_RECV_SEQ, NOTIFY_BYTE_LEN, NOTIFY_IMM, NOTIFY_OPCODE, NOTIFY_STATUS};
    private static final long[] RECV_FIELDS = {RECV_SEQ, RECV_ALLOC_ID, RECV_FILE_OFFSET, RECV_LENGTH};

    @AfterAll
    static void report() {
        FuzzCount.report(NOTIFY);
        FuzzCount.report(RECEIVES);
    }

    @Test
    void garbledRingsCompleteEveryReceiveOnceAndReachNoGuard() {
        Tries.run(100, this::garbledRingsCompleteEveryReceiveOnceAndReachNoGuard);
    }

    /** One try of {@link #garbledRingsCompleteEveryReceiveOnceAndReachNoGuard()}. */
    private void garbledRingsCompleteEveryReceiveOnceAndReachNoGuard(long seed) throws IOException {
        Mutator m = new Mutator(new SplittableRandom(seed), ByteOrder.nativeOrder());
        SplittableRandom r = m.random();
        List<Guarded> ownerGuards = new ArrayList<>();
        List<Guarded> senderGuards = new ArrayList<>();
        try (PairBed bed = PairBed.connected("shm", Map.of(), 8); Arena arena = Arena.ofShared()) {
            List<Long> lengths = new ArrayList<>();
            int posted = 1 + r.nextInt(4);
            for (int i = 0; i < posted; i++) {
                long n = 1 + r.nextInt(4096);
                MemoryRegion buf = bed.pdB.register(guarded(bed.pdB.allocate(Guarded.wholeBytes(n)), ownerGuards), EnumSet.of(Access.LOCAL_WRITE));
                assertTrue(bed.qpB.postRecv(new RecvWr(i, buf.sge(0, n))));
                lengths.add(n);
            }
            MemorySegment qpFile = ShmFiles.mapExisting(((ShmContext) bed.ctxB).paths().qp(bed.qpB.qpn()), arena);
            int capacity = qpFile.get(JAVA_INT, CAPACITY_OFFSET);
            boolean notifications = r.nextBoolean();
            if (notifications) {
                garble(m, qpFile, notifyEntry(r.nextInt(posted), capacity), NOTIFY_FIELDS);
                qpFile.set(JAVA_LONG, NOTIFY_TAIL_OFFSET, r.nextInt(3) > 0 ? 1 + r.nextInt(posted) : m.extreme());
            } else {
                garble(m, qpFile, recvEntry(r.nextInt(posted), capacity), RECV_FIELDS);
                if (r.nextInt(4) == 0) qpFile.set(JAVA_LONG, RECV_TAIL_OFFSET, m.extreme());
                sendFromA(bed, r, senderGuards, posted);
            }
            FuzzCount.record(notifications ? NOTIFY : RECEIVES, true);
            List<WorkCompletion> done = awaitReceives(bed, posted);
            Set<Long> seen = new HashSet<>();
            for (WorkCompletion wc : done) {
                assertTrue(seen.add(wc.wrId()), "receive " + wc.wrId() + " completed twice");
                if (wc.status() == WcStatus.SUCCESS && wc.opcode() == WcOpcode.RECV) {
                    assertTrue(wc.byteLen() >= 0 && wc.byteLen() <= lengths.get((int) wc.wrId()),
                            "a completion claims " + wc.byteLen() + " bytes of a " + lengths.get((int) wc.wrId()) + "-byte buffer");
                } else if (wc.status() != WcStatus.SUCCESS) {
                    assertTrue(!wc.detail().isBlank(), "an error without a reason: " + wc);
                }
            }
            assertEquals(posted, done.size(), "every posted receive completes once: " + done);
            assertTrue(senderGuards.stream().allMatch(Guarded::intact), "a copy reached past the sender's own memory");
            // The receive ring is the owner's word on where its buffers are: garbled by the owner, it can send a
            // copy anywhere in the owner's own backing files (never outside them). Garbled notifications move no byte.
            if (notifications) assertTrue(ownerGuards.stream().allMatch(Guarded::intact), "a notification moved bytes");
        }
    }

    /** Regression: a notification tail far past what was posted failed the owner's poll as a CQ overrun. */
    @Test
    void aNotificationTailPastThePostedReceivesErrsTheQueuePair() throws IOException {
        assertOneReceiveEndsInError(NOTIFY_TAIL_OFFSET, -1, 1L << 40, "rings are corrupt");
    }

    /** Regression: a SEND notification claiming more bytes than its buffer completed as SUCCESS with that count. */
    @Test
    void aNotificationClaimingMoreThanTheBufferIsRefused() throws IOException {
        assertOneReceiveEndsInError(NOTIFY_TAIL_OFFSET, NOTIFY_BYTE_LEN, 1, "malformed");
    }

    /** Posts one 100-byte receive at B, sets {@code word} (and, unless -1, a byte count of 1 MiB) as the peer, polls. */
    private static void assertOneReceiveEndsInError(long word, long byteLenField, long value, String why) throws IOException {
        try (PairBed bed = PairBed.connected("shm", Map.of(), 8); Arena arena = Arena.ofShared()) {
            MemoryRegion buf = PairBed.shared(bed.pdB, 100, Access.LOCAL_WRITE);
            assertTrue(bed.qpB.postRecv(new RecvWr(7, buf.sge(0, 100))));
            MemorySegment qpFile = ShmFiles.mapExisting(((ShmContext) bed.ctxB).paths().qp(bed.qpB.qpn()), arena);
            if (byteLenField >= 0) qpFile.set(JAVA_LONG, notifyEntry(0, qpFile.get(JAVA_INT, CAPACITY_OFFSET)) + byteLenField, 1 << 20);
            qpFile.set(JAVA_LONG, word, value);
            WorkCompletion wc = PairBed.awaitOne(bed.cqB);
            assertEquals(WcStatus.WR_FLUSH_ERR, wc.status(), wc.toString());
            assertTrue(wc.detail().contains(why), wc.detail());
        }
    }

    private static void garble(Mutator m, MemorySegment file, long entry, long[] fields) {
        for (int i = 1 + m.random().nextInt(3); i > 0; i--) {
            long field = entry + fields[m.random().nextInt(fields.length)];
            if (field % 8 == 0) file.set(JAVA_LONG, field, m.extreme());
            else file.set(JAVA_INT, field, (int) m.extreme());
        }
    }

    /** A sends up to {@code posted} SENDs into B's garbled receive ring; each completes, by success or with a reason. */
    private static void sendFromA(PairBed bed, SplittableRandom r, List<Guarded> guards, int posted) {
        MemorySegment src = guarded(bed.pdA.allocate(Guarded.wholeBytes(4096)), guards);
        MemoryRegion local = bed.pdA.register(src, EnumSet.of(Access.LOCAL_WRITE));
        int sends = 1 + r.nextInt(posted);
        for (int i = 0; i < sends; i++) assertTrue(bed.qpA.postSend(SendWr.send(50 + i, local.sge(0, 1 + r.nextInt(4096)))));
        List<WorkCompletion> sent = PairBed.awaitAll(bed.cqA, sends, PairBed.AWAIT_NS);
        assertEquals(sends, sent.size(), "a SEND into a garbled ring did not complete");
        for (WorkCompletion wc : sent) assertTrue(wc.status() == WcStatus.SUCCESS || !wc.detail().isBlank(), wc.toString());
        if (sent.stream().anyMatch(wc -> wc.status() != WcStatus.SUCCESS)) bed.qpB.modifyToError(); // flush what is left
    }

    /** Receive completions of B, polling until {@code posted} arrived; B moves to ERR where they stall. */
    private static List<WorkCompletion> awaitReceives(PairBed bed, int posted) {
        List<WorkCompletion> done = new ArrayList<>(PairBed.awaitAll(bed.cqB, posted, 200_000_000L));
        if (done.size() < posted) {
            bed.qpB.modifyToError(); // a garbled tail below what was posted leaves receives open: flush them
            done.addAll(PairBed.awaitAll(bed.cqB, posted - done.size(), PairBed.AWAIT_NS));
        }
        return done;
    }

    private static MemorySegment guarded(MemorySegment whole, List<Guarded> guards) {
        Guarded g = new Guarded(whole);
        guards.add(g);
        return g.inner();
    }
}
