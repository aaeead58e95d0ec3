package dev.jccl.verbs;

import java.lang.foreign.MemorySegment;

/**
 * Loads from and stores into a connected peer's registered memory, where a provider can map it
 * (shm: the peer's backing file, mapped into this process): what a direct read ({@code JCCL_DIRECT})
 * reduces or copies from instead of a chunk the peer copied into our FIFO, and where a fused receive
 * stores its result straight into the peer's FIFO slot. Made by {@link QueuePair#openPeerMemory};
 * one pin at a time; used by one thread; {@link #pin} and {@link #unpin} allocate nothing.
 */
public interface PeerMemory {
    /**
     * Checks that {@code [address, +length)} lies in the peer's region {@code rkey} with REMOTE_WRITE
     * ({@code write}) or REMOTE_READ and pins the region until {@link #unpin} (the peer's
     * deregistration waits for it). Returns the offset of {@code address} in {@link #memory()}, or -1
     * with {@link #error()} saying why.
     */
    long pin(int rkey, long address, long length, boolean write);

    /** The peer memory of the last successful {@link #pin}: a plain native segment (fast for SIMD kernels). */
    MemorySegment memory();

    void unpin();

    /**
     * Copies {@code length} bytes at {@code address} of the peer process's own memory, registered or
     * not, into {@code dst} at {@code dstOffset} (shm: one copy by the kernel, process_vm_readv), for a
     * peer that named a chunk of a private buffer instead of sending it. False, with {@link #error()}
     * saying why, when it cannot (unmapped there, the peer gone, not permitted). Unsupported by default.
     */
    default boolean readPrivate(long address, long length, MemorySegment dst, long dstOffset) {
        return false;
    }

    /** Why the last {@link #pin} or {@link #readPrivate} failed. */
    String error();
}
