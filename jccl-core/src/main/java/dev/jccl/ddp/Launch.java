package dev.jccl.ddp;

import dev.jccl.trace.Timeline;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One bucket's collective of one step: when it left and when it was first seen complete. The
 * completion is stamped by whichever thread sees it first (the {@link CompletionWatcher}, a poll
 * during backward, or the wait in finish()), so the stamp is as early as anyone knew.
 */
final class Launch {
    final GradientCollectives.Pending pending;
    final long launchNs;
    private final AtomicLong doneNs = new AtomicLong();

    Launch(GradientCollectives.Pending pending, long launchNs) {
        this.pending = pending;
        this.launchNs = launchNs;
    }

    /** Records {@code nowNs} as the completion time unless one is recorded already. */
    void stampDone(long nowNs) {
        doneNs.compareAndSet(0, nowNs);
    }

    long doneNs() {
        return doneNs.get();
    }

    boolean seenDone() {
        return doneNs.get() != 0;
    }

    /** Never blocks. */
    void poll() {
        if (!seenDone() && pending.isDone()) stampDone(Timeline.nowNs());
    }

    /** Blocks until complete (bounded by the collectives' timeout); throws the collective's failure. */
    void await() {
        if (!seenDone()) {
            pending.await();
            stampDone(Timeline.nowNs());
        }
    }
}
