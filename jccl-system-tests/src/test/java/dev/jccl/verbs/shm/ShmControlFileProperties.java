package dev.jccl.verbs.shm;

import dev.jccl.fuzz.FuzzCount;
import dev.jccl.fuzz.Guarded;
import dev.jccl.fuzz.Mutator;
import dev.jccl.fuzz.Tries;
import dev.jccl.testkit.PairBed;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static dev.jccl.verbs.shm.ControlDescriptor.*;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A peer that writes garbage into its own published region table: every lookup another process
 * makes through it is either refused with a reason or lands inside the backing file that process
 * really mapped; no lookup leaves a pin behind, none writes past the requester's own memory, a
 * garbled header is refused within the deadline, and once the table is whole again the real queue
 * pairs of both processes go on working.
 */
@Tag("unit")
class ShmControlFileProperties {
    private static final String TABLE = "shm-control (lookups through a garbled region table)";
    private static final String HEADER = "shm-control (garbled headers)";
    private static final long[] ENTRY_FIELDS = {ENTRY_SEQ, ENTRY_ACCESSORS, ENTRY_STATE, ENTRY_RKEY, ENTRY_RIGHTS, ENTRY_PD_ID,
        ENTRY_ALLOC_ID, ENTRY_BASE, ENTRY_LENGTH, ENTRY_FILE_OFFSET};
    private static final int LOOKUPS = 20;
    private static final int TRIES = 1000;
    private static final int LOCAL_BYTES = 64 * 1024;
    private static PairBed bed;
    private static Arena arena;
    private static MemorySegment control;
    private static byte[] pristine;
    private static int capacity;
    private static final List<MemoryRegion> targets = new ArrayList<>();
    private static final List<Integer> liveSlots = new ArrayList<>();
    private static Guarded local;
    private static MemoryRegion localRegion;
    private static RemoteContext view;
    private static int pdId;

    @BeforeAll
    static void open() throws IOException {
        bed = PairBed.connected("shm", Map.of(), 8);
        for (int i = 0; i < 3; i++) targets.add(PairBed.shared(bed.pdB, 4096 << i, Access.LOCAL_WRITE, Access.REMOTE_WRITE, Access.REMOTE_READ));
        local = new Guarded(bed.pdA.allocate(Guarded.wholeBytes(LOCAL_BYTES)));
        localRegion = bed.pdA.register(local.inner(), EnumSet.of(Access.LOCAL_WRITE));
        ShmContext b = (ShmContext) bed.ctxB;
        arena = Arena.ofShared();
        control = ShmFiles.mapExisting(b.paths().control(), arena);
        capacity = control.get(JAVA_INT, REGION_CAPACITY_OFFSET);
        pristine = control.asSlice(REGIONS_OFFSET, capacity * REGION_ENTRY_BYTES).toArray(JAVA_BYTE);
        for (int slot = 0; slot < capacity; slot++) {
            if (control.get(JAVA_INT, entryOffset(slot) + ENTRY_STATE) == LIVE) liveSlots.add(slot);
        }
        pdId = ((ShmProtectionDomain) bed.pdB).id();
        view = RemoteContext.attach(b.paths(), b.lid(), Deadline.after(5_000_000_000L));
    }

    @AfterAll
    static void close() {
        view.close();
        arena.close();
        bed.close();
        FuzzCount.report(TABLE);
        FuzzCount.report(HEADER);
    }

    @Test
    void lookupsThroughAGarbledTableAreRefusedOrStayInsideTheMappedFile() {
        Tries.run(TRIES, this::lookupsThroughAGarbledTableAreRefusedOrStayInsideTheMappedFile);
    }

    /** One try of {@link #lookupsThroughAGarbledTableAreRefusedOrStayInsideTheMappedFile()}. */
    private void lookupsThroughAGarbledTableAreRefusedOrStayInsideTheMappedFile(long seed) {
        Mutator m = new Mutator(new SplittableRandom(seed), ByteOrder.nativeOrder());
        SplittableRandom r = m.random();
        restore();
        for (int i = 1 + r.nextInt(4); i > 0; i--) {
            int slot = r.nextInt(3) > 0 ? liveSlots.get(r.nextInt(liveSlots.size())) : r.nextInt(capacity);
            // An odd seq (an entry left mid-rewrite) costs each lookup through it the full retry bound, a few
            // milliseconds: tried now and then, not in every table, or it would be most of this class's time.
            int pick = r.nextInt(ENTRY_FIELDS.length);
            if (pick == 0 && r.nextInt(8) != 0) pick = 1 + r.nextInt(ENTRY_FIELDS.length - 1);
            long field = entryOffset(slot) + ENTRY_FIELDS[pick];
            if (field % 8 == 0 && r.nextBoolean()) control.set(JAVA_LONG, field, m.extreme());
            else control.set(JAVA_INT, field, (int) m.extreme());
        }
        long pinsBefore = pins();
        RemoteTarget t = new RemoteTarget();
        for (int i = 0; i < LOOKUPS; i++) {
            MemoryRegion target = targets.get(r.nextInt(targets.size()));
            int rkey = r.nextInt(4) > 0 ? target.rkey() : control.get(JAVA_INT, entryOffset(r.nextInt(capacity)) + ENTRY_RKEY);
            long address = r.nextBoolean() ? target.address() + r.nextLong(target.length()) : m.extreme();
            long length = r.nextInt(4) > 0 ? r.nextLong(LOCAL_BYTES + 1) : m.extreme();
            int right = r.nextBoolean() ? RIGHT_REMOTE_WRITE : RIGHT_REMOTE_READ;
            t.error = null;
            boolean granted = view.regions().acquire(rkey, address, length, right, r.nextInt(8) > 0 ? pdId : r.nextInt(), t);
            if (granted) {
                assertTrue(t.offset >= 0 && length >= 0 && t.offset + length <= t.memory.byteSize(),
                        "granted [" + t.offset + ", +" + length + ") of a " + t.memory.byteSize() + "-byte file");
                if (length <= LOCAL_BYTES) { // the copy Delivery makes: it must not fault or reach past our own memory
                    if (right == RIGHT_REMOTE_WRITE) MemorySegment.copy(local.inner(), 0, t.memory, t.offset, length);
                    else MemorySegment.copy(t.memory, t.offset, local.inner(), 0, length);
                }
                view.regions().release(t);
                assertEquals(-1, t.pinnedEntry);
            } else {
                assertTrue(t.error != null && !t.error.isBlank(), "refused without a reason");
                assertEquals(-1, t.pinnedEntry, "a refused lookup kept its pin");
            }
            FuzzCount.record(TABLE, !granted);
        }
        assertEquals(pinsBefore, pins(), "a lookup left a pin: the owner's next withdraw would wait out JCCL_TIMEOUT");
        assertTrue(local.intact(), "a copy reached past the requester's own memory");
        restore();
        aRealWriteStillLands(r);
    }

    @Test
    void aGarbledHeaderIsRefusedWithinTheDeadline() {
        Tries.run(200, this::aGarbledHeaderIsRefusedWithinTheDeadline);
    }

    /** One try of {@link #aGarbledHeaderIsRefusedWithinTheDeadline()}. */
    private void aGarbledHeaderIsRefusedWithinTheDeadline(long seed) {
        Mutator m = new Mutator(new SplittableRandom(seed), ByteOrder.nativeOrder());
        byte[] header = control.asSlice(0, HEADER_BYTES).toArray(JAVA_BYTE);
        ShmContext b = (ShmContext) bed.ctxB;
        try {
            long[] fields = {MAGIC_OFFSET, VERSION_OFFSET, PID_OFFSET, LID_OFFSET, REGION_CAPACITY_OFFSET, REGION_CAPACITY_OFFSET};
            long field = fields[m.random().nextInt(fields.length)];
            control.set(JAVA_INT, field, (int) m.extreme());
            boolean refused;
            try {
                RemoteContext rc = RemoteContext.attach(b.paths(), b.lid(), Deadline.after(2_000_000L));
                int cap = control.get(JAVA_INT, REGION_CAPACITY_OFFSET);
                assertTrue(cap >= 1 && Integer.bitCount(cap) == 1 && fileBytes(cap) <= control.byteSize(), "took capacity " + cap);
                rc.close();
                refused = false;
            } catch (VerbsException e) {
                refused = true;
                assertTrue(e.getMessage().contains("shm") || e.getMessage().contains("control file"), e.getMessage());
            }
            FuzzCount.record(HEADER, refused);
        } finally {
            MemorySegment.copy(MemorySegment.ofArray(header), 0, control, 0, HEADER_BYTES);
        }
    }

    private static void restore() {
        MemorySegment.copy(MemorySegment.ofArray(pristine), 0, control, REGIONS_OFFSET, pristine.length);
    }

    private static long pins() {
        long sum = 0;
        for (int slot = 0; slot < capacity; slot++) sum += control.get(JAVA_INT, entryOffset(slot) + ENTRY_ACCESSORS);
        return sum;
    }

    private static void aRealWriteStillLands(SplittableRandom r) {
        MemoryRegion target = targets.getFirst();
        byte fill = (byte) (1 + r.nextInt(100));
        local.inner().asSlice(0, 256).fill(fill);
        assertTrue(bed.qpA.postSend(SendWr.write(9, localRegion.sge(0, 256), target.address(), target.rkey())));
        WorkCompletion wc = PairBed.awaitOne(bed.cqA);
        assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
        assertEquals(-1, target.segment().asSlice(0, 256).mismatch(local.inner().asSlice(0, 256)));
    }
}
