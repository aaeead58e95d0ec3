package dev.jccl.verbs.base;

import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.Deadline;
import dev.jccl.util.WaitPolicy;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.WcOpcode;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;

import java.util.concurrent.locks.LockSupport;

/**
 * A completion queue in process memory: many producers (provider threads, posting threads that
 * complete inline), one consumer.
 *
 * <p>Producers and the consumer meet under one monitor; uncontended that costs tens of
 * nanoseconds, far below a transfer. A consumer that has backed off to parking registers itself in
 * {@code waiter} before re-checking, and producers unpark it after publishing, so a parked waiter
 * wakes on the completion rather than at the end of its park period.
 *
 * <p>How a waiter sleeps and is woken can be replaced ({@link #block}, {@link #wake}): a provider
 * whose progress arrives on file descriptors sleeps on them, so that the data itself wakes the
 * waiter and no second thread has to hand it over. How long a waiter spins, yields and parks is
 * the {@link WaitPolicy}'s decision for the queue's {@link WaitPolicy.CqKind}.
 */
public class BasicCompletionQueue implements CompletionQueue {
    private final int depth;
    private final WaitPolicy wait;
    private final WaitPolicy.CqKind kind;
    private final WorkCompletion[] ring;
    private long head; // next to consume; guarded by this
    private long tail; // next to fill; guarded by this
    private boolean overrun; // guarded by this
    private volatile boolean closed;
    private volatile Thread waiter;

    /** An in-process queue with the knobs' default waiting. */
    public BasicCompletionQueue(int depth) {
        this(depth, WaitPolicy.defaults(), WaitPolicy.CqKind.IN_PROCESS);
    }

    /** @param wait the provider's wait policy; {@code kind} says how its consumer learns of completions */
    public BasicCompletionQueue(int depth, WaitPolicy wait, WaitPolicy.CqKind kind) {
        if (depth < 1) throw new IllegalArgumentException("cq depth must be >= 1, got " + depth);
        this.depth = depth;
        this.wait = wait;
        this.kind = kind;
        this.ring = WorkCompletion.array(depth);
    }

    protected boolean isClosed() {
        return closed;
    }

    /** Whether {@link #poll} would return something now (or report an overrun), without progress. */
    protected synchronized boolean ready() {
        return overrun || tail != head;
    }

    @Override
    public int depth() {
        return depth;
    }

    /** Adds a completion; called by providers. Overrunning marks the queue broken (reported on poll). */
    public void push(long wrId, WcStatus status, WcOpcode opcode, long byteLen, int imm, boolean hasImm, int qpn,
                     String detail) {
        synchronized (this) {
            if (closed) return;
            if (tail - head >= depth) {
                overrun = true;
            } else {
                ring[(int) (tail % depth)].set(wrId, status, opcode, byteLen, imm, hasImm, qpn, detail);
                tail++;
            }
        }
        Thread w = waiter;
        if (w != null) wake(w);
    }

    /**
     * Sleeps the consumer for at most {@code ns}, returning early when {@link #wake} is called (a
     * wake that comes first makes the next call return at once, as with a park permit).
     */
    protected void block(long ns) {
        LockSupport.parkNanos(this, ns);
    }

    /** Whether this queue's queue pairs move bulk data on threads of their own now (a waiter then spins less). */
    protected boolean carryingBulk() {
        return false;
    }

    /** Ends the {@link #block} of {@code consumer}, or makes its next one return at once. */
    protected void wake(Thread consumer) {
        LockSupport.unpark(consumer);
    }

    /**
     * Hook for providers that make progress when the consumer polls (shm drains its notification
     * rings here). Returns the amount of work done. Runs on the polling thread, outside the monitor.
     */
    protected int progress() {
        return 0;
    }

    @Override
    public int poll(WorkCompletion[] out) {
        progress();
        return takeQueued(out, 0);
    }

    /**
     * Copies queued completions into {@code out} from index {@code from}, as many as fit; returns how
     * many. For providers that write some completions straight into the caller's array in their own
     * {@link #poll} and take the queued ones after.
     */
    protected final synchronized int takeQueued(WorkCompletion[] out, int from) {
        failIfOverrun(0);
        int n = (int) Math.min(out.length - from, tail - head);
        for (int i = 0; i < n; i++) {
            out[from + i].copyFrom(ring[(int) (head % depth)]);
            head++;
        }
        return n;
    }

    /**
     * Throws (and stays broken) when the queued completions and {@code unqueued} more that are ready
     * elsewhere (a provider's own rings, taken straight into the poller's array) exceed the depth:
     * an application that lets completions pile up past the CQ's size is told so, wherever they wait.
     */
    protected final synchronized void failIfOverrun(long unqueued) {
        if (!overrun && tail - head + unqueued > depth) overrun = true;
        if (overrun) {
            throw new VerbsException("completion queue overrun: more than " + depth
                    + " completions were outstanding; size the CQ for every WR that can complete");
        }
    }

    @Override
    public int await(WorkCompletion[] out, long timeoutNs) {
        int n = poll(out);
        if (n > 0 || timeoutNs <= 0) return n;
        Deadline deadline = Deadline.after(timeoutNs);
        BackoffIdleStrategy idle = wait.completion(kind, carryingBulk()).strategy(this::block);
        waiter = Thread.currentThread();
        try {
            while (!closed) {
                idle.idle();
                n = poll(out);
                if (n > 0 || deadline.expired()) return n;
            }
            return poll(out);
        } finally {
            waiter = null;
        }
    }

    @Override
    public void close() {
        closed = true;
        Thread w = waiter;
        if (w != null) wake(w);
    }
}
