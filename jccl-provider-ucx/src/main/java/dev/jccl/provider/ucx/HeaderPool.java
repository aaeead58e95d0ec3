package dev.jccl.provider.ucx;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;

/**
 * Native blocks for outgoing AM headers. UCX may read a header until the send completes, so each
 * message holds one block from posting to completion. Used under the worker lock only; grows by
 * chunks and is freed with its context.
 */
final class HeaderPool {
    private static final int CHUNK = 256;

    private final Arena arena;
    private final ArrayDeque<MemorySegment> free = new ArrayDeque<>();

    HeaderPool(Arena arena) {
        this.arena = arena;
    }

    MemorySegment take() {
        MemorySegment h = free.pollFirst();
        if (h != null) return h;
        MemorySegment chunk = arena.allocate((long) CHUNK * AmDescriptor.BYTES, 64);
        for (int i = 1; i < CHUNK; i++) free.addLast(chunk.asSlice((long) i * AmDescriptor.BYTES, AmDescriptor.BYTES));
        return chunk.asSlice(0, AmDescriptor.BYTES);
    }

    void give(MemorySegment h) {
        free.addLast(h);
    }
}
