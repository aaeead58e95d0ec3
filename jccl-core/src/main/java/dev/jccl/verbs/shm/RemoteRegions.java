package dev.jccl.verbs.shm;

import java.lang.foreign.MemorySegment;

import static dev.jccl.verbs.shm.ControlDescriptor.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * A peer's region table as seen by a requester: resolves (rkey, address, length, right) to the
 * peer's memory and pins the entry for the duration of the copy. The memory-ordering pairing with
 * the owner is described in {@link PublishedRegions}.
 *
 * <p>Everything read from the peer's file is checked before use: bounds against the entry, then the
 * entry against the backing file this process actually mapped, so a corrupt table cannot make us
 * touch memory outside that file.
 */
final class RemoteRegions {
    private static final int OK = 0;
    private static final int FAILED = 1;
    private static final int RETRY = 2;
    private static final int MAX_RETRIES = 100_000;

    private final RemoteContext peer;
    private final MemorySegment control;
    private final int capacity;

    RemoteRegions(RemoteContext peer, MemorySegment control, int capacity) {
        this.peer = peer;
        this.control = control;
        this.capacity = capacity;
    }

    /**
     * On success pins the entry and fills {@code t.memory} and {@code t.offset}; the caller copies and
     * then calls {@link #release}. On failure pins nothing and sets {@code t.error}.
     */
    boolean acquire(int rkey, long address, long length, int right, int pdId, RemoteTarget t) {
        for (int attempt = 0; attempt < MAX_RETRIES; attempt++) {
            int r = tryAcquire(rkey, address, length, right, pdId, t);
            if (r != RETRY) return r == OK;
            Thread.onSpinWait(); // the owner is rewriting an entry on our probe path: nanoseconds
        }
        t.error = String.format("rkey 0x%08x: the peer's region table stayed locked (pid %d died while "
                + "registering?)", rkey, peer.pid());
        return false;
    }

    void release(RemoteTarget t) {
        if (t.pinnedEntry >= 0) {
            SharedWords.getAndAddInt(control, t.pinnedEntry + ENTRY_ACCESSORS, -1);
            t.pinnedEntry = -1;
        }
    }

    private int tryAcquire(int rkey, long address, long length, int right, int pdId, RemoteTarget t) {
        int home = homeSlot(rkey, capacity);
        for (int i = 0; i < capacity; i++) {
            long e = entryOffset((home + i) & (capacity - 1));
            int seq = SharedWords.getIntAcquire(control, e + ENTRY_SEQ);
            if ((seq & 1) != 0) return RETRY;
            int state = control.get(JAVA_INT, e + ENTRY_STATE);
            if (state == EMPTY) break;
            if (state != LIVE || control.get(JAVA_INT, e + ENTRY_RKEY) != rkey) continue;
            int rights = control.get(JAVA_INT, e + ENTRY_RIGHTS);
            int entryPd = control.get(JAVA_INT, e + ENTRY_PD_ID);
            int allocId = control.get(JAVA_INT, e + ENTRY_ALLOC_ID);
            long base = control.get(JAVA_LONG, e + ENTRY_BASE);
            long regionBytes = control.get(JAVA_LONG, e + ENTRY_LENGTH);
            long fileOffset = control.get(JAVA_LONG, e + ENTRY_FILE_OFFSET);
            SharedWords.getAndAddInt(control, e + ENTRY_ACCESSORS, 1); // pin, then re-check (Dekker)
            if (SharedWords.getIntVolatile(control, e + ENTRY_SEQ) != seq) {
                SharedWords.getAndAddInt(control, e + ENTRY_ACCESSORS, -1);
                return RETRY;
            }
            t.pinnedEntry = e;
            if (check(rkey, address, length, right, pdId, t, rights, entryPd, allocId, base, regionBytes, fileOffset)) {
                return OK;
            }
            release(t);
            return FAILED;
        }
        t.error = String.format("rkey 0x%08x is not registered at the peer (pid %d)", rkey, peer.pid());
        return FAILED;
    }

    private boolean check(int rkey, long address, long length, int right, int pdId, RemoteTarget t, int rights,
                          int entryPd, int allocId, long base, long regionBytes, long fileOffset) {
        if (entryPd != pdId) {
            t.error = String.format("rkey 0x%08x belongs to another protection domain at the peer (pid %d)", rkey, peer.pid());
            return false;
        }
        if ((rights & right) == 0) {
            t.error = String.format("rkey 0x%08x does not grant %s at the peer (pid %d)", rkey,
                    right == RIGHT_REMOTE_WRITE ? "REMOTE_WRITE" : "REMOTE_READ", peer.pid());
            return false;
        }
        long off = address - base;
        if (off < 0 || off > regionBytes || length < 0 || length > regionBytes - off) {
            t.error = String.format("[0x%x, +%d) is outside the region [0x%x, +%d) of rkey 0x%08x at the peer (pid %d)",
                    address, length, base, regionBytes, rkey, peer.pid());
            return false;
        }
        MemorySegment memory = peer.memory(allocId, t);
        if (memory == null) return false;
        if (fileOffset < 0 || fileOffset > memory.byteSize() || off + length > memory.byteSize() - fileOffset) {
            t.error = String.format("rkey 0x%08x: the peer's table puts [%d, +%d) past its %d-byte backing file",
                    rkey, fileOffset + off, length, memory.byteSize());
            return false;
        }
        t.memory = memory;
        t.offset = fileOffset + off;
        return true;
    }
}
