package dev.jccl.verbs.shm;

import java.lang.foreign.MemorySegment;

/**
 * Where a checked access to a peer's memory lands. One per send queue, reused for every request so
 * the hot path allocates nothing; filled by {@link RemoteRegions#acquire} and
 * {@link RemoteContext#memory}.
 */
final class RemoteTarget {
    /** The peer's backing file as this process maps it. */
    MemorySegment memory;
    /** First byte of the access inside {@link #memory}. */
    long offset;
    /** Offset of the region entry pinned in the peer's control file, or -1 when none is pinned. */
    long pinnedEntry = -1;
    /** Why the last lookup failed; set only on failure. */
    String error;
}
