package dev.jccl.verbs.base;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Counts the free entries of a fixed-depth work queue. Posting takes a slot, completion gives it
 * back; a full queue is back-pressure ({@code tryAcquire} returns false), never an exception.
 */
public final class WorkQueueSlots {
    private final int depth;
    private final AtomicInteger used = new AtomicInteger();

    public WorkQueueSlots(int depth) {
        this.depth = depth;
    }

    public boolean tryAcquire() {
        while (true) {
            int u = used.get();
            if (u >= depth) return false;
            if (used.compareAndSet(u, u + 1)) return true;
        }
    }

    public void release() {
        if (used.decrementAndGet() < 0) {
            used.incrementAndGet();
            throw new IllegalStateException("work queue released more slots than were taken");
        }
    }

    public int depth() {
        return depth;
    }

    public int inUse() {
        return used.get();
    }
}
