package dev.jccl.verbs.shm;

import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.base.LocalRegion;

import java.lang.foreign.MemorySegment;

import static dev.jccl.verbs.shm.ControlDescriptor.*;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The owner's side of the region table in its control file: publishes remotely accessible regions
 * and withdraws them. Single writer (calls are synchronized); peers read through
 * {@link RemoteRegions}.
 *
 * <p>Memory ordering, per entry:
 * <ul>
 *   <li>Publish: volatile-store {@code seq} odd, write the fields, release-store {@code seq} even.
 *       A peer acquire-loads {@code seq}, reads the fields, and re-reads {@code seq}; equal and even
 *       means the fields are one consistent version.</li>
 *   <li>Withdraw: volatile-store {@code seq} odd, mark DEAD, release-store {@code seq} even, then
 *       wait until {@code accessors} reads 0. A peer increments {@code accessors} (a full fence)
 *       before re-checking {@code seq}. These are two volatile-store-then-volatile-load sequences
 *       on different words (Dekker): at least one side sees the other's store. Either the peer sees
 *       the new {@code seq} and backs off without touching memory, or the owner sees the pin and
 *       waits for the copy to finish.</li>
 * </ul>
 * Guarantee: once {@link #withdraw} returns, no live peer is copying into or out of the region and
 * none will start. The wait is bounded by JCCL_TIMEOUT; if a peer died while pinning an entry its
 * count never drops, so after the bound we warn and go on (a dead process writes nothing).
 */
final class PublishedRegions {
    private final MemorySegment control;
    private final int capacity;
    private final long timeoutNs;

    PublishedRegions(MemorySegment control, int capacity, long timeoutNs) {
        this.control = control;
        this.capacity = capacity;
        this.timeoutNs = timeoutNs;
    }

    /**
     * Publishes {@code region}; returns its slot, or -1 when another region already uses the same
     * rkey (keys are per domain, the table per context: the caller re-registers with fresh keys).
     */
    synchronized int publish(LocalRegion region, int pdId, int allocId, long fileOffset) {
        int home = homeSlot(region.rkey(), capacity);
        int free = -1;
        for (int i = 0; i < capacity; i++) {
            int slot = (home + i) & (capacity - 1);
            long e = entryOffset(slot);
            int state = control.get(JAVA_INT, e + ENTRY_STATE);
            if (state == LIVE && control.get(JAVA_INT, e + ENTRY_RKEY) == region.rkey()) {
                return -1;
            }
            // A DEAD slot still pinned by a peer that died mid-copy would make its next withdraw wait.
            boolean clean = SharedWords.getIntVolatile(control, e + ENTRY_ACCESSORS) == 0;
            if (state != LIVE && free < 0 && clean) free = slot;
            if (state == EMPTY) break;
        }
        if (free < 0) {
            throw new VerbsException("shm: region table full: " + capacity + " remotely accessible regions are "
                    + "registered in this context; deregister some before registering " + region);
        }
        long e = entryOffset(free);
        int seq = control.get(JAVA_INT, e + ENTRY_SEQ);
        SharedWords.setIntVolatile(control, e + ENTRY_SEQ, seq + 1);
        control.set(JAVA_INT, e + ENTRY_RKEY, region.rkey());
        control.set(JAVA_INT, e + ENTRY_RIGHTS, rights(region));
        control.set(JAVA_INT, e + ENTRY_PD_ID, pdId);
        control.set(JAVA_INT, e + ENTRY_ALLOC_ID, allocId);
        control.set(JAVA_LONG, e + ENTRY_BASE, region.address());
        control.set(JAVA_LONG, e + ENTRY_LENGTH, region.length());
        control.set(JAVA_LONG, e + ENTRY_FILE_OFFSET, fileOffset);
        control.set(JAVA_INT, e + ENTRY_STATE, LIVE);
        SharedWords.setIntRelease(control, e + ENTRY_SEQ, seq + 2);
        return free;
    }

    /** Withdraws the entry in {@code slot} and waits for peers copying under it (see class comment). */
    synchronized void withdraw(int slot, LocalRegion region) {
        long e = entryOffset(slot);
        int seq = control.get(JAVA_INT, e + ENTRY_SEQ);
        SharedWords.setIntVolatile(control, e + ENTRY_SEQ, seq + 1);
        control.set(JAVA_INT, e + ENTRY_STATE, DEAD);
        SharedWords.setIntRelease(control, e + ENTRY_SEQ, seq + 2);
        if (SharedWords.getIntVolatile(control, e + ENTRY_ACCESSORS) == 0) return;
        Deadline deadline = Deadline.after(timeoutNs);
        BackoffIdleStrategy idle = WaitPolicy.stateWait();
        while (SharedWords.getIntVolatile(control, e + ENTRY_ACCESSORS) != 0) {
            if (deadline.expired()) {
                Log.warn(Subsys.SHM, "deregistering %s: a peer still pins it after JCCL_TIMEOUT (did it die "
                        + "mid-copy?); continuing", region);
                return;
            }
            idle.idle();
        }
    }

    private static int rights(LocalRegion r) {
        return (r.access().contains(Access.REMOTE_WRITE) ? RIGHT_REMOTE_WRITE : 0)
                | (r.access().contains(Access.REMOTE_READ) ? RIGHT_REMOTE_READ : 0);
    }
}
