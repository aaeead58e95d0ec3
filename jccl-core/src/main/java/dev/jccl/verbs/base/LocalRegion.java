package dev.jccl.verbs.base;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * A region registered in a {@link RegionTable}. {@code refs} counts registrations served by the
 * cache; the keys stay valid until it drops to zero.
 */
public final class LocalRegion implements MemoryRegion {
    private final int lkey;
    private final int rkey;
    private final MemorySegment segment;
    private final Set<Access> access;
    private int refs = 1; // guarded by the owning RegionTable
    private volatile boolean valid = true;

    LocalRegion(int lkey, int rkey, MemorySegment segment, Set<Access> access) {
        this.lkey = lkey;
        this.rkey = rkey;
        this.segment = segment;
        this.access = Set.copyOf(access);
    }

    @Override public int lkey() { return lkey; }
    @Override public int rkey() { return rkey; }
    @Override public long address() { return segment.address(); }
    @Override public long length() { return segment.byteSize(); }
    @Override public Set<Access> access() { return access; }
    @Override public MemorySegment segment() { return segment; }

    public boolean valid() { return valid; }

    int refs() { return refs; }
    void retain() { refs++; }
    int release() { return --refs; }
    void invalidate() { valid = false; }

    @Override
    public String toString() {
        return String.format("mr{addr=0x%x len=%d lkey=0x%08x rkey=0x%08x %s}", address(), length(), lkey, rkey, access);
    }
}
