package dev.jccl.ddp;

import dev.jccl.trace.Timeline;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * One bucket's collective of one step: when it left and when it was first seen complete. The
 * completion is stamped by whichever thread sees it first (the {@link CompletionWatcher} blocked on
 * it, a poll during backward, or the wait in finish()), so the stamp is as early as anyone knew.
 */
final class Launch {
    final GradientCollectives.Pending pending;
    final long launchNs;
    private final AtomicLong doneNs = new AtomicLong();
    /** Counted down by the watcher once this launch completed or failed. */
    private final CountDownLatch settled = new CountDownLatch(1);

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

    /** The watcher is done with this launch (it completed or failed). */
    void settle() {
        settled.countDown();
    }

    /**
     * Blocks until complete without becoming a second thread that drives progress: it sleeps until the
     * watcher, already waiting on this launch (and driving the collectives' progress), settles it.
     * Should the watcher be gone, it waits itself. Bounded because the watcher's own wait is. Throws
     * the collective's failure.
     */
    void awaitSettled(BooleanSupplier watcherAlive) {
        try {
            while (!settled.await(10, TimeUnit.MILLISECONDS)) {
                if (!watcherAlive.getAsBoolean()) break;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        await();
    }

    /** Blocks until complete (bounded by the collectives' timeout); throws the collective's failure. */
    void await() {
        if (!seenDone()) {
            pending.await();
            stampDone(Timeline.nowNs());
        }
    }
}
