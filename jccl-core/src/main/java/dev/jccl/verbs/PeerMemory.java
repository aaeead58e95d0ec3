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

    /** Why the last {@link #pin} failed. */
    String error();
}
