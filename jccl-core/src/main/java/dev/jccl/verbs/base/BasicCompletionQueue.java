package dev.jccl.verbs.base;

import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.Deadline;
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
 */
public class BasicCompletionQueue implements CompletionQueue {
    private final int depth;
    private final WorkCompletion[] ring;
    private long head; // next to consume; guarded by this
    private long tail; // next to fill; guarded by this
    private boolean overrun; // guarded by this
    private volatile boolean closed;
    private volatile Thread waiter;

    public BasicCompletionQueue(int depth) {
        if (depth < 1) throw new IllegalArgumentException("cq depth must be >= 1, got " + depth);
        this.depth = depth;
        this.ring = WorkCompletion.array(depth);
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
        if (w != null) LockSupport.unpark(w);
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
        synchronized (this) {
            if (overrun) {
                throw new VerbsException("completion queue overrun: more than " + depth
                        + " completions were outstanding; size the CQ for every WR that can complete");
            }
            int n = (int) Math.min(out.length, tail - head);
            for (int i = 0; i < n; i++) {
                out[i].copyFrom(ring[(int) (head % depth)]);
                head++;
            }
            return n;
        }
    }

    @Override
    public int await(WorkCompletion[] out, long timeoutNs) {
        int n = poll(out);
        if (n > 0 || timeoutNs <= 0) return n;
        Deadline deadline = Deadline.after(timeoutNs);
        BackoffIdleStrategy idle = BackoffIdleStrategy.defaults();
        waiter = Thread.currentThread();
        try {
            while (!closed) {
                n = poll(out);
                if (n > 0 || deadline.expired()) return n;
                idle.idle();
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
        if (w != null) LockSupport.unpark(w);
    }
}
