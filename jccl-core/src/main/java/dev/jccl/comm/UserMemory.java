package dev.jccl.comm;

import dev.jccl.exec.Bindings;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.ProtectionDomain;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Registration of callers' buffers as local send sources, cached per protection domain and
 * address range, least recently used first out.
 *
 * <p>Why register rather than stage: a send then reads the caller's memory directly (shm: one
 * copy into the peer's slot; tcp: the socket reads it), where staging would add a full copy of
 * every byte sent. Registration is cheap for local sources (no remote keys are published), and a
 * training loop reuses the same buffers, so the cache makes it free after the first call. A cached
 * entry keeps the segment it was made from; if that segment's arena has closed, the range may now
 * be other memory, so the entry is dropped and the range registered again.
 *
 * <p>Used by the progress thread only.
 */
final class UserMemory implements Bindings.Registrar {
    private static final int ENTRIES_PER_DOMAIN = 64;
    private static final EnumSet<Access> LOCAL_SOURCE = EnumSet.noneOf(Access.class);

    private record Range(long address, long bytes) {}

    private record Cached(MemorySegment segment, MemoryRegion region) {}

    private final Map<ProtectionDomain, LinkedHashMap<Range, Cached>> caches = new IdentityHashMap<>();

    @Override
    public MemoryRegion region(MemorySegment owner, ProtectionDomain pd) {
        LinkedHashMap<Range, Cached> cache = caches.computeIfAbsent(pd, d -> new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Range, Cached> eldest) {
                if (size() <= ENTRIES_PER_DOMAIN) return false;
                deregisterQuietly(d, eldest.getValue().region());
                return true;
            }
        });
        Range key = new Range(owner.address(), owner.byteSize());
        Cached e = cache.get(key);
        if (e != null) {
            if (e.segment().scope().isAlive()) return e.region();
            cache.remove(key);
            deregisterQuietly(pd, e.region());
        }
        MemoryRegion r = pd.register(owner, LOCAL_SOURCE);
        cache.put(key, new Cached(owner, r));
        return r;
    }

    private static void deregisterQuietly(ProtectionDomain pd, MemoryRegion r) {
        try {
            pd.deregister(r);
        } catch (RuntimeException ignored) {
            // the domain is closing or the region went with it
        }
    }
}
