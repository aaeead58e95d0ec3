package dev.jccl.provider.ucx;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Who waits on a context's worker, and how. A consumer waiting on one of its completion queues
 * drives progress itself, and the progress agent keeps out of its way meanwhile (two cores, several
 * ranks: competing for the lock and the core costs more than the agent adds). A thread that must
 * sleep may sleep on the worker's event fd, so the peer's message itself wakes it, as a socket
 * waiter is woken, instead of a park that only a second thread's progress could end.
 */
final class WorkerWaits {
    private final UcxContext context;
    private final AtomicBoolean fdSleeper = new AtomicBoolean();
    private final AtomicInteger waitingConsumers = new AtomicInteger();
    private volatile boolean networkPeers;

    WorkerWaits(UcxContext context) {
        this.context = context;
    }

    /**
     * Sleeps at most {@code ns} on the event fd. Progress runs once more and the fd is armed under
     * the lock first, so nothing that arrived before is slept through. One thread sleeps on the fd
     * at a time; another parks instead and is woken by whoever pushes its completion.
     */
    void sleep(long ns) {
        if (!fdSleeper.compareAndSet(false, true)) {
            LockSupport.parkNanos(ns);
            return;
        }
        try {
            if (context.quietAndArmed()) context.worker().wakeup().sleep(ns);
        } finally {
            fdSleeper.set(false);
        }
    }

    /** Ends a {@link #sleep} in progress (a completion was pushed by another thread). */
    void wakeSleeper() {
        if (fdSleeper.get() && !context.isClosed()) context.worker().wakeup().signal();
    }

    void consumerWaiting(boolean waiting) {
        if (waiting) waitingConsumers.incrementAndGet(); else waitingConsumers.decrementAndGet();
    }

    boolean consumerWaiting() {
        return waitingConsumers.get() > 0;
    }

    /** A connection of this context runs over a network transport (not host memory). */
    void networkPeerConnected() {
        networkPeers = true;
    }

    boolean hasNetworkPeers() {
        return networkPeers;
    }
}
