package dev.jccl.provider.ucx;

import dev.jccl.verbs.Access;
import dev.jccl.verbs.DeviceContext;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Regions and queue pairs of one domain. Each real registration (cache hits excluded) is one
 * {@code ucp_mem_map} with its rkey packed once; peers fetch the packed key on first use
 * ({@link UcxQueuePair}) and are told to drop it when the region dies ({@link RkeyRevocation}).
 * Any memory may be exposed: UCX reaches private memory too (cma on one host, the NIC's
 * registration across hosts).
 */
final class UcxProtectionDomain implements ProtectionDomain {
    /** What UCX holds for one region: its memory handle and packed rkey (null for 0 bytes). */
    record Mapping(MemorySegment memh, byte[] packed, MemorySegment packedNative, boolean owned) {}

    private final UcxContext context;
    private final RegionTable regions = new RegionTable();
    private final Arena arena = Arena.ofShared();
    private final Map<LocalRegion, Mapping> mappings = new HashMap<>(); // guarded by the worker lock
    private final List<Allocated> allocations = new ArrayList<>();     // guarded by the worker lock
    private final List<UcxQueuePair> qps = new ArrayList<>();         // guarded by the worker lock
    private boolean closed;

    UcxProtectionDomain(UcxContext context) {
        this.context = context;
    }

    @Override public DeviceContext context() { return context; }
    RegionTable regions() { return regions; }

    /** The region's mapping, or null when the key is not (or no longer) registered. Hold the lock. */
    Mapping mapping(LocalRegion r) {
        return mappings.get(r);
    }

    /** Memory from {@link #allocate}: UCX's allocation and the rkey packed for all of it, once. */
    private record Allocated(UcpMemory.Allocation memory, Mapping mapping) {
        boolean contains(long address, long length) {
            return address >= memory.address() && length <= memory.length() - (address - memory.address());
        }
    }

    /**
     * Memory UCX allocates and registers (UCP_MEM_MAP_ALLOCATE): on one host a shared mapping the
     * peer's UCX attaches, so a put into it is one plain copy. Regions registered inside it reuse its
     * memory handle and packed rkey (bounds are this domain's own check). It lives until the domain
     * closes; the segment is bound to the domain's arena, so a use after that fails instead of
     * touching unmapped memory.
     */
    @Override
    public MemorySegment allocate(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative allocation " + bytes);
        return context.locked(() -> {
            checkOpen();
            UcpMemory.Allocation a = UcpMemory.allocate(context.worker(), Math.max(bytes, 1));
            allocations.add(new Allocated(a, packed(a.memh(), false)));
            MemorySegment memory = bind(a.address(), bytes);
            memory.fill((byte) 0); // as an arena allocation would be: callers may rely on fresh memory reading 0
            return memory;
        });
    }

    // Giving a raw address a length and a lifetime is restricted: UCX allocated exactly this range,
    // and the domain's arena, closed before the memory is unmapped, bounds its use.
    @SuppressWarnings("restricted")
    private MemorySegment bind(long address, long bytes) {
        return MemorySegment.ofAddress(address).reinterpret(bytes, arena, null);
    }

    @Override
    public MemoryRegion register(MemorySegment segment, Set<Access> access) {
        if (!segment.isNative()) throw new VerbsException("only native memory can be registered, not " + segment);
        return context.locked(() -> {
            checkOpen();
            LocalRegion r = regions.register(segment, access, true);
            if (!mappings.containsKey(r)) mappings.put(r, map(r));
            return r;
        });
    }

    private Mapping map(LocalRegion r) {
        if (r.length() == 0) return new Mapping(null, new byte[0], MemorySegment.NULL, false);
        for (Allocated a : allocations) if (a.contains(r.address(), r.length())) return a.mapping();
        return packed(UcpMemory.map(context.worker(), r.address(), r.length()), true);
    }

    private Mapping packed(MemorySegment memh, boolean owned) {
        byte[] packed = UcpMemory.pack(context.worker(), memh);
        MemorySegment packedNative = arena.allocate(packed.length);
        packedNative.copyFrom(MemorySegment.ofArray(packed));
        return new Mapping(memh, packed, packedNative, owned);
    }

    @Override
    public void deregister(MemoryRegion region) {
        if (!(region instanceof LocalRegion r)) throw new VerbsException("region " + region + " is not from this domain");
        boolean dead = context.locked(() -> regions.deregister(r));
        if (!dead) return;
        // Peers that fetched the key must forget it before it is reused, so a later access of theirs
        // is refused at their end (REM_ACCESS_ERR), as a NIC refuses a deregistered key.
        new RkeyRevocation(context, this, r.rkey()).run();
        context.locked(() -> unmap(r));
    }

    private void unmap(LocalRegion r) {
        Mapping m = mappings.remove(r);
        if (m != null && m.owned()) UcpMemory.unmap(context.worker(), m.memh());
    }

    /** Queue pairs of this domain, for revocations. Hold the lock. */
    List<UcxQueuePair> queuePairs() {
        return qps;
    }

    @Override
    public QueuePair createQp(QpInitAttr attr) {
        return context.locked(() -> {
            checkOpen();
            UcxQueuePair qp = context.newQp(this, context.ownCq(attr.sendCq()), context.ownCq(attr.recvCq()),
                    attr.maxSendWr(), attr.maxRecvWr());
            qps.add(qp);
            return qp;
        });
    }

    void forget(UcxQueuePair qp) {
        qps.remove(qp);
    }

    @Override
    public void close() {
        if (context.isClosed()) return;
        List<UcxQueuePair> open = context.locked(() -> {
            if (closed) return List.<UcxQueuePair>of();
            closed = true;
            return new ArrayList<>(qps);
        });
        for (UcxQueuePair qp : open) qp.close();
        context.locked(() -> {
            for (LocalRegion r : new ArrayList<>(mappings.keySet())) unmap(r);
            arena.close(); // first: segments from allocate() stop being usable, then their memory goes
            for (Allocated a : allocations) UcpMemory.unmap(context.worker(), a.memory().memh());
            allocations.clear();
        });
        context.forget(this);
    }

    private void checkOpen() {
        if (closed) throw new VerbsException("protection domain is closed");
    }

}
