package dev.jccl.verbs.shm;

import dev.jccl.util.WaitPolicy;
import dev.jccl.verbs.WorkCompletion;
import dev.jccl.verbs.base.BasicCompletionQueue;

import java.util.Arrays;

/**
 * A completion queue that makes the shm transport progress when polled: it drains the notification
 * rings of the queue pairs attached to it (their receive completions) and retries their waiting
 * sends. Successful sends need no progress: they complete inline in {@code postSend}, onto this
 * queue's ring. Receive completions are written straight into the poller's array instead: they are
 * found by the polling thread itself, so queuing them only to copy them out in the same poll would be
 * a wasted copy. Receives completed on another thread (a flush) still go through the ring, after
 * every receive drained directly, so RC order holds.
 */
final class ShmCompletionQueue extends BasicCompletionQueue {
    private final ShmContext context;
    private volatile ShmQueuePair[] attached = new ShmQueuePair[0];

    ShmCompletionQueue(ShmContext context, int depth) {
        super(depth, context.waitPolicy(), WaitPolicy.CqKind.SHARED_RINGS);
        this.context = context;
    }

    ShmContext context() {
        return context;
    }

    synchronized void attach(ShmQueuePair qp) {
        ShmQueuePair[] a = Arrays.copyOf(attached, attached.length + 1);
        a[a.length - 1] = qp;
        attached = a;
    }

    synchronized void detach(ShmQueuePair qp) {
        attached = Arrays.stream(attached).filter(q -> q != qp).toArray(ShmQueuePair[]::new);
    }

    @Override
    public int poll(WorkCompletion[] out) {
        long notified = 0;
        for (ShmQueuePair qp : attached) notified += qp.notifiedReceives(this);
        failIfOverrun(notified);
        int n = 0;
        for (ShmQueuePair qp : attached) n += qp.progress(this, out, n);
        return n + takeQueued(out, n);
    }
}
