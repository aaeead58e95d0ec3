package dev.jccl.verbs.shm;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.base.LocalRegion;
import dev.jccl.verbs.base.RegionTable;

import java.lang.foreign.MemorySegment;

/**
 * Resolves the local sges of one work queue to (region segment, offset), remembering the last few
 * regions it resolved, so the steady state (the same registered buffers posted again and again)
 * allocates nothing. A miss goes through {@link RegionTable#resolveLocal}, which owns the checks and
 * their messages and throws {@link VerbsException} on a breach. Used only under its queue's lock.
 */
final class LocalSges {
    private static final int WAYS = 4;

    private final RegionTable regions;
    private final SharedAllocations allocations;
    private final LocalRegion[] recent = new LocalRegion[WAYS];
    private final SharedAllocations.Allocation[] allocationOf = new SharedAllocations.Allocation[WAYS];
    private final boolean[] allocationKnown = new boolean[WAYS];
    private int hit;    // way of the last non-empty resolve
    private int victim; // next way to replace, round robin

    LocalSges(RegionTable regions, SharedAllocations allocations) {
        this.regions = regions;
        this.allocations = allocations;
    }

    /**
     * Checks {@code sge} (with LOCAL_WRITE when {@code write}) and returns its offset inside
     * {@link #segment()}. A zero-length sge names no memory and is always valid.
     */
    long resolve(Sge sge, boolean write) {
        return resolve(sge.address(), sge.length(), sge.lkey(), write);
    }

    /** {@link #resolve(Sge, boolean)} for the local memory of a work request, given field by field. */
    long resolve(long address, long length, int lkey, boolean write) {
        if (length == 0) return 0;
        for (int w = 0; w < WAYS; w++) {
            LocalRegion r = recent[w];
            if (r != null && r.lkey() == lkey && r.valid() && fits(r, address, length)
                    && (!write || r.access().contains(Access.LOCAL_WRITE))) {
                hit = w;
                return address - r.address();
            }
        }
        LocalRegion r = regions.checkLocal(address, length, lkey, write); // throws, naming the breach
        hit = victim;
        victim = (victim + 1) % WAYS;
        recent[hit] = r;
        allocationKnown[hit] = false;
        return address - r.address();
    }

    /** The whole registered segment of the region the last non-empty {@link #resolve} hit. */
    MemorySegment segment() {
        return recent[hit].segment();
    }

    /** The shared allocation holding that region, or null when it is private memory. */
    SharedAllocations.Allocation allocation() {
        if (!allocationKnown[hit]) {
            LocalRegion r = recent[hit];
            allocationOf[hit] = allocations.containing(r.address(), r.length());
            allocationKnown[hit] = true;
        }
        return allocationOf[hit];
    }

    private static boolean fits(LocalRegion r, long address, long length) {
        long off = address - r.address();
        return off >= 0 && off <= r.length() && length <= r.length() - off;
    }
}
