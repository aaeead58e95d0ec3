package dev.jccl.ddp;

import dev.jccl.trace.event.BucketEvent;
import dev.jccl.trace.Timeline;

import java.util.concurrent.atomic.AtomicLong;

/**
 * One bucket's collective of one step: when it left and when it was first seen complete. The
 * completion is stamped by whichever thread sees it first (the {@link CompletionWatcher}, a poll
 * during backward, or the wait in finish()), so the stamp is as early as anyone knew. That thread
 * also commits the bucket's JFR event, when a recording wants one.
 */
final class Launch {
    final GradientCollectives.Pending pending;
    final long launchNs;
    private final AtomicLong doneNs = new AtomicLong();
    /** Null unless a recording wanted it at launch. */
    private final BucketEvent event;

    Launch(GradientCollectives.Pending pending, long launchNs, BucketEvent event) {
        this.pending = pending;
        this.launchNs = launchNs;
        this.event = event;
    }

    /** Records {@code nowNs} as the completion time unless one is recorded already. */
    void stampDone(long nowNs) {
        if (doneNs.compareAndSet(0, nowNs) && event != null) event.finish();
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
