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
    record Mapping(MemorySegment memh, byte[] packed, MemorySegment packedNative) {}

    private final UcxContext context;
    private final RegionTable regions = new RegionTable();
    private final Arena arena = Arena.ofShared();
    private final Map<LocalRegion, Mapping> mappings = new HashMap<>(); // guarded by the worker lock
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

    @Override
    public MemorySegment allocate(long bytes) {
        if (bytes < 0) throw new IllegalArgumentException("negative allocation " + bytes);
        return context.locked(() -> {
            checkOpen();
            return arena.allocate(Math.max(bytes, 1), 4096).asSlice(0, bytes);
        });
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
        if (r.length() == 0) return new Mapping(null, new byte[0], MemorySegment.NULL);
        MemorySegment memh = UcpMemory.map(context.worker(), r.address(), r.length());
        byte[] packed = UcpMemory.pack(context.worker(), memh);
        MemorySegment packedNative = arena.allocate(packed.length);
        packedNative.copyFrom(MemorySegment.ofArray(packed));
        return new Mapping(memh, packed, packedNative);
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
        if (m != null && m.memh() != null) UcpMemory.unmap(context.worker(), m.memh());
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
        });
        context.forget(this);
        arena.close();
    }

    private void checkOpen() {
        if (closed) throw new VerbsException("protection domain is closed");
    }

}
