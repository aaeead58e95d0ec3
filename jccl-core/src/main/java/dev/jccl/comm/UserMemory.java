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
    /** Memory peers can map (Communicator.allocate) is registered readable by them: sends from it may be direct reads. */
    private static final EnumSet<Access> SHARED_SOURCE = EnumSet.of(Access.REMOTE_READ);

    private record Range(long address, long bytes) {}

    private record Cached(MemorySegment segment, MemoryRegion region) {}

    /** Answers remembered in front of the maps; a collective sends from its input and its output. */
    private static final int RECENT = 4;

    private final Map<ProtectionDomain, LinkedHashMap<Range, Cached>> caches = new IdentityHashMap<>();
    // The last answers: a loop that reuses its buffers asks for the same ranges again and again, and
    // finding them here builds no key (the maps need a Range), so the steady state allocates nothing.
    private final ProtectionDomain[] recentPd = new ProtectionDomain[RECENT];
    private final Cached[] recent = new Cached[RECENT];
    private int nextRecent;

    @Override
    public MemoryRegion region(MemorySegment owner, ProtectionDomain pd) {
        for (int i = 0; i < RECENT; i++) {
            Cached l = recent[i];
            if (recentPd[i] == pd && l != null && l.segment().address() == owner.address()
                    && l.segment().byteSize() == owner.byteSize() && l.segment().scope().isAlive()) {
                return l.region();
            }
        }
        return lookup(owner, pd);
    }

    private MemoryRegion lookup(MemorySegment owner, ProtectionDomain pd) {
        LinkedHashMap<Range, Cached> cache = caches.computeIfAbsent(pd, d -> new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Range, Cached> eldest) {
                if (size() <= ENTRIES_PER_DOMAIN) return false;
                forget(d, eldest.getValue());
                return true;
            }
        });
        Range key = new Range(owner.address(), owner.byteSize());
        Cached e = cache.get(key);
        if (e != null && !e.segment().scope().isAlive()) {
            cache.remove(key);
            forget(pd, e);
            e = null;
        }
        if (e == null) {
            e = new Cached(owner, pd.register(owner, pd.shareable(owner) ? SHARED_SOURCE : LOCAL_SOURCE));
            cache.put(key, e);
        }
        recentPd[nextRecent] = pd;
        recent[nextRecent] = e;
        nextRecent = (nextRecent + 1) % RECENT;
        return e.region();
    }

    /** Drops a cached registration that left the cache (evicted, or its memory is gone). */
    private void forget(ProtectionDomain pd, Cached c) {
        for (int i = 0; i < RECENT; i++) {
            if (recent[i] == c) {
                recent[i] = null;
                recentPd[i] = null;
            }
        }
        try {
            pd.deregister(c.region());
        } catch (RuntimeException ignored) {
            // the domain is closing or the region went with it
        }
    }
}
