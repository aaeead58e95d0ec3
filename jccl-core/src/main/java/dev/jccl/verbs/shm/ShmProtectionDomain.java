package dev.jccl.verbs.shm;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.QpInitAttr;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.base.LocalRegion;
import dev.jccl.verbs.base.RegionTable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A protection domain of the shm provider. {@link #allocate} hands out shared mappings (one file
 * each, under JCCL_SHM_DIR); registering a range of one with remote rights publishes it in the
 * context's region table, so peers can resolve its rkey. Private memory registers for local use only.
 * Thread-safe: registration and allocation are synchronized.
 */
final class ShmProtectionDomain implements ProtectionDomain {
    private static final int KEY_ATTEMPTS = 16;

    private final ShmContext context;
    private final int id;
    private final Arena arena = Arena.ofShared();
    private final RegionTable regions = new RegionTable();
    private final Map<LocalRegion, Integer> publishedSlots = new IdentityHashMap<>(); // guarded by this
    private final List<SharedAllocations.Allocation> allocations = new ArrayList<>(); // guarded by this
    private final List<ShmQueuePair> queuePairs = new CopyOnWriteArrayList<>();
    private boolean closed; // guarded by this

    ShmProtectionDomain(ShmContext context, int id) {
        this.context = context;
        this.id = id;
    }

    @Override public ShmContext context() { return context; }
    int id() { return id; }
    RegionTable regions() { return regions; }
    List<ShmQueuePair> queuePairs() { return queuePairs; }

    @Override
    public synchronized MemorySegment allocate(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("cannot allocate " + bytes + " bytes");
        checkOpen();
        int allocId = context.nextAllocId();
        SharedAllocations.Allocation a;
        MemorySegment mapped = ShmFiles.create(context.paths().memory(allocId), Math.max(bytes, 1), arena);
        a = new SharedAllocations.Allocation(allocId, mapped.address(), bytes, context.paths().memory(allocId));
        allocations.add(a);
        context.allocations().add(a);
        return plainView(mapped, bytes);
    }

    /**
     * A plain native view (same scope) of the mapping: callers' buffers from here go through the
     * reduce kernels, and the Vector API compiles to SIMD only for the segment class it has seen.
     */
    @SuppressWarnings("restricted")
    private static MemorySegment plainView(MemorySegment mapped, long bytes) {
        return mapped.reinterpret(bytes);
    }

    @Override
    public boolean shareable(MemorySegment segment) {
        return context.allocations().containing(segment.address(), segment.byteSize()) != null;
    }

    @Override
    public synchronized MemoryRegion register(MemorySegment segment, Set<Access> access) {
        checkOpen();
        SharedAllocations.Allocation a = context.allocations().containing(segment.address(), segment.byteSize());
        boolean remote = access.contains(Access.REMOTE_WRITE) || access.contains(Access.REMOTE_READ);
        for (int attempt = 0; attempt < KEY_ATTEMPTS; attempt++) {
            LocalRegion r = regions.register(segment, access, a != null);
            if (!remote || publishedSlots.containsKey(r)) return r;
            int slot = context.publishedRegions().publish(r, id, a.allocId(), segment.address() - a.base());
            if (slot >= 0) {
                publishedSlots.put(r, slot);
                return r;
            }
            regions.deregister(r); // its rkey is taken by another domain of this context: draw new keys
        }
        throw new VerbsException("shm: no free rkey after " + KEY_ATTEMPTS + " attempts registering " + segment);
    }

    /** Drops one reference; at zero the rkey is withdrawn and no peer copies under it once this returns. */
    @Override
    public synchronized void deregister(MemoryRegion region) {
        if (closed) return; // closing released every region already
        if (!(region instanceof LocalRegion r) || regions.byLkey(r.lkey()) != r) {
            throw new VerbsException("region is not registered in this protection domain: " + region);
        }
        if (regions.deregister(r)) {
            Integer slot = publishedSlots.remove(r);
            if (slot != null) context.publishedRegions().withdraw(slot, r);
        }
    }

    @Override
    public QueuePair createQp(QpInitAttr attr) {
        synchronized (this) {
            checkOpen();
        }
        ShmQueuePair qp = new ShmQueuePair(this, attr, context.nextQpn());
        queuePairs.add(qp);
        synchronized (this) {
            if (!closed) return qp;
        }
        qp.close(); // the domain closed while the queue pair was being made
        throw new VerbsException("protection domain " + id + " is closed");
    }

    void forget(ShmQueuePair qp) {
        queuePairs.remove(qp);
    }

    /**
     * Closes every queue pair, withdraws every region, then unmaps and removes the allocations; a
     * segment from {@link #allocate} is unusable afterwards (accessing it throws, it never dangles).
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) return;
            closed = true;
        }
        for (ShmQueuePair qp : queuePairs) qp.close();
        synchronized (this) {
            publishedSlots.forEach((r, slot) -> context.publishedRegions().withdraw(slot, r));
            publishedSlots.clear();
            arena.close();
            for (SharedAllocations.Allocation a : allocations) {
                context.allocations().remove(a);
                ShmFiles.deleteQuietly(a.path());
            }
            allocations.clear();
        }
        context.forget(this);
    }

    private void checkOpen() {
        if (closed) throw new VerbsException("protection domain " + id + " is closed");
    }
}
