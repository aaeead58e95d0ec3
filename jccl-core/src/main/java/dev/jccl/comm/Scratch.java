package dev.jccl.comm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/**
 * Native memory the runtime owns: each channel's SCRATCH (grow-only, reused by every operation)
 * and staging buffers for Java arrays and in-place allToAll (pooled by power-of-two size, so the
 * registration cache sees the same ranges again). Freed when the communicator closes.
 * Thread-safe: staging is taken by issuing threads and returned by the progress thread.
 */
final class Scratch implements AutoCloseable {
    private static final long ALIGN = 64;

    private final Arena arena = Arena.ofShared();
    private MemorySegment[] channels = new MemorySegment[0];
    private final Map<Long, ArrayDeque<MemorySegment>> free = new HashMap<>();

    synchronized MemorySegment channel(int channel, long bytes) {
        if (channel >= channels.length) channels = java.util.Arrays.copyOf(channels, channel + 1);
        MemorySegment s = channels[channel];
        if (s == null || s.byteSize() < bytes) {
            s = arena.allocate(Math.max(bytes, s == null ? ALIGN : 2 * s.byteSize()), ALIGN);
            channels[channel] = s;
        }
        return s;
    }

    /** A staging buffer of at least {@code bytes}; give it back with {@link #release}. */
    synchronized MemorySegment acquire(long bytes) {
        long size = Math.max(ALIGN, Long.highestOneBit(Math.max(1, bytes - 1)) << 1);
        ArrayDeque<MemorySegment> q = free.get(size);
        MemorySegment s = q == null ? null : q.poll();
        return s != null ? s : arena.allocate(size, ALIGN);
    }

    synchronized void release(MemorySegment staging) {
        free.computeIfAbsent(staging.byteSize(), k -> new ArrayDeque<>()).push(staging);
    }

    @Override
    public synchronized void close() {
        arena.close();
    }
}
