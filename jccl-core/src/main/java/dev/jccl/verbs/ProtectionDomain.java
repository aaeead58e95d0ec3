package dev.jccl.verbs;

import java.lang.foreign.MemorySegment;
import java.util.Set;

/**
 * Groups memory regions and queue pairs; a queue pair may only use regions of its own domain.
 * Thread-safe.
 */
public interface ProtectionDomain extends AutoCloseable {
    DeviceContext context();

    /**
     * Allocates memory that peers may write into and read from through this provider (for shm, a
     * shared mapping). Freed when the domain closes. {@code bytes} may be 0.
     */
    MemorySegment allocate(long bytes);

    /**
     * Registers {@code segment} for use in work requests. Registering a range that is already
     * registered with at least these rights returns the existing region (a registration cache) and
     * counts a reference; {@link #deregister} drops one.
     *
     * <p>Memory the provider cannot expose to peers (for shm: memory not from {@link #allocate}) may
     * still be registered, but only as a local source or sink: asking for REMOTE_WRITE or
     * REMOTE_READ on it throws {@link VerbsException} saying so.
     */
    MemoryRegion register(MemorySegment segment, Set<Access> access);

    /**
     * Whether all of {@code segment} is memory peers can map ({@link #allocate} of a provider that
     * offers {@link QueuePair#openPeerMemory}); such memory may be registered with REMOTE_READ.
     */
    default boolean shareable(MemorySegment segment) {
        return false;
    }

    /** Drops one reference; at zero the keys become invalid and peers' accesses get REM_ACCESS_ERR. */
    void deregister(MemoryRegion region);

    /** Creates an RC queue pair in state RESET. */
    QueuePair createQp(QpInitAttr attr);

    /** Closes every queue pair and region of this domain. */
    @Override
    void close();
}
