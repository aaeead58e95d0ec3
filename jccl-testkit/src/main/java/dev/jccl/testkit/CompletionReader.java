package dev.jccl.testkit;

import dev.jccl.util.Deadline;
import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.WorkCompletion;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Test-side reader of one completion queue: bounded waits that fail with a message naming the queue
 * and what arrived, instead of hanging or returning a count to be checked by hand.
 *
 * <p>Completions are copied out of the provider's array at once, so a caller may hold several.
 * Single consumer, like the queue it reads.
 */
public final class CompletionReader {
    public static final long DEFAULT_WAIT_NS = TimeUnit.SECONDS.toNanos(10);

    private final String name;
    private final CompletionQueue cq;
    private final WorkCompletion[] batch = WorkCompletion.array(16);
    private final ArrayDeque<WorkCompletion> ready = new ArrayDeque<>();

    public CompletionReader(String name, CompletionQueue cq) {
        this.name = name;
        this.cq = cq;
    }

    public CompletionQueue queue() {
        return cq;
    }

    /** The next completion, waiting up to {@code timeoutNs}; fails naming this queue when none came. */
    public WorkCompletion next(long timeoutNs) {
        Deadline deadline = Deadline.after(timeoutNs);
        while (ready.isEmpty()) {
            long left = deadline.remainingNs();
            int n = left == 0 ? cq.poll(batch) : cq.await(batch, left);
            for (int i = 0; i < n; i++) ready.addLast(new WorkCompletion().copyFrom(batch[i]));
            if (n == 0 && deadline.expired()) {
                throw new AssertionError(name + ": no completion within " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms");
            }
        }
        return ready.pollFirst();
    }

    public WorkCompletion next() {
        return next(DEFAULT_WAIT_NS);
    }

    /** The next {@code count} completions, in the order the queue delivered them. */
    public List<WorkCompletion> next(int count, long timeoutNs) {
        Deadline deadline = Deadline.after(timeoutNs);
        List<WorkCompletion> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            try {
                out.add(next(Math.max(1, deadline.remainingNs())));
            } catch (AssertionError e) {
                throw new AssertionError(name + ": only " + out.size() + " of " + count + " completions arrived: " + out, e);
            }
        }
        return out;
    }

    /** The next completion, which must be a success with this wr_id. */
    public WorkCompletion nextSuccess(long wrId) {
        return nextSuccess(wrId, DEFAULT_WAIT_NS);
    }

    public WorkCompletion nextSuccess(long wrId, long timeoutNs) {
        WorkCompletion wc = next(timeoutNs);
        if (wc.status() != WcStatus.SUCCESS || wc.wrId() != wrId) {
            throw new AssertionError(name + ": expected SUCCESS for wr_id " + wrId + ", got " + wc);
        }
        return wc;
    }

    /** The next completion, which must carry {@code status} for {@code wrId}. */
    public WorkCompletion nextWithStatus(long wrId, WcStatus status) {
        WorkCompletion wc = next();
        if (wc.status() != status || wc.wrId() != wrId) {
            throw new AssertionError(name + ": expected " + status + " for wr_id " + wrId + ", got " + wc);
        }
        return wc;
    }

    /** Fails if any completion arrives within {@code quietNs}. */
    public void expectNone(long quietNs) {
        if (!ready.isEmpty()) throw new AssertionError(name + ": unexpected completion " + ready.peekFirst());
        int n = cq.await(batch, quietNs);
        if (n > 0) throw new AssertionError(name + ": unexpected completion " + batch[0]);
    }
}
