package dev.jccl.verbs;

/**
 * What kind of path a provider offers between two ranks, best first. When JCCL_TRANSPORT leaves
 * the choice to jccl, a pair takes the provider with the best kind among those that reach (ties go
 * to provider-name order), so a provider in another module can say "I am the RDMA path here"
 * without the runtime naming it.
 *
 * <p>Shared memory ranks above RDMA because within a host a memcpy beats a round trip through the
 * NIC; RDMA above sockets because it skips the kernel's copies and framing. {@link #OTHER} is for a
 * provider that reaches but claims nothing better: it is taken only when nothing else reaches.
 */
public enum PathKind {
    /** Loads and stores into memory both ranks map (one host, one /dev/shm). */
    SHARED_MEMORY,
    /** The NIC reads and writes registered memory by DMA (InfiniBand, RoCE). */
    RDMA,
    /** A kernel socket stack (tcp). */
    SOCKET,
    /** Anything else, e.g. a general-purpose library on a transport no better than a socket. */
    OTHER
}
