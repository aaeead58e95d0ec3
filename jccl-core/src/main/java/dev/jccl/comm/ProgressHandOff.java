package dev.jccl.comm;

import dev.jccl.util.Agent;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Who runs the communicator's progress now: a caller blocked in {@code await()} or the progress
 * thread ({@link ProgressAgent}), one at a time under the progress lock, never both. A waiting
 * caller drives progress itself rather than waiting for the thread to be scheduled; meanwhile the
 * thread sleeps, and the last caller to leave with operations in flight wakes it.
 *
 * <p>The thread also leaves progress to callers for {@code callerGraceNs} after a caller issued or
 * stopped waiting: a thread that holds the progress lock and loses its core stalls everyone behind
 * the lock, and with more threads than cores an agent competing with a caller that is about to wait
 * does exactly that. The numbers and their reasons are {@link dev.jccl.util.WaitPolicy}'s.
 */
final class ProgressHandOff {
    private final Agent work;
    private final OpQueue ops;
    private final long callerGraceNs;
    private final ReentrantLock progressLock = new ReentrantLock();
    private final AtomicInteger waitingCallers = new AtomicInteger();
    /** When a caller last issued or waited. */
    private volatile long callerSeenNs;
    /** Whether the callers' last call ran inline ({@link InlineCalls}) and none has queued one since. */
    private volatile boolean callersInline;
    /** Calls queued since a caller last started waiting (racy counts only make a wake-up early or late by a cede). */
    private volatile int issuedUnawaited;
    /** When a caller last issued a call. */
    private volatile long lastIssueNs;
    /** Whether the callers' last wait began more than a grace after their last issue: they issue, compute, then wait. */
    private volatile boolean issuesRunAhead;
    private volatile ProgressAgent progressThread;

    ProgressHandOff(Agent work, OpQueue ops, long callerGraceNs) {
        this.work = work;
        this.ops = ops;
        this.callerGraceNs = callerGraceNs;
    }

    /** The thread that runs progress while no caller does. */
    void thread(ProgressAgent t) {
        progressThread = t;
    }

    /** Runs one pass of the work if no other thread is; returns the work done. */
    int tryProgress() {
        return tryProgress(work);
    }

    /** Runs one pass of {@code pass} (the work, or a variant of its pass) if no other thread is; returns the work done. */
    int tryProgress(Agent pass) {
        if (!progressLock.tryLock()) return 0;
        try {
            return pass.doWork();
        } finally {
            progressLock.unlock();
        }
    }

    /** Wakes the progress thread from any sleep: a waiting caller left it an operation to start. */
    void wakeThread() {
        ProgressAgent t = progressThread;
        if (t != null) t.wake();
    }

    /** Takes the progress lock if no other thread holds it (a caller about to run its call inline); then {@link #exit()}. */
    boolean tryEnter() {
        return progressLock.tryLock();
    }

    void exit() {
        progressLock.unlock();
    }

    /** Runs {@code action} holding the progress lock (waits for a pass in progress to end). */
    void exclusively(Runnable action) {
        progressLock.lock();
        try {
            action.run();
        } finally {
            progressLock.unlock();
        }
    }

    /** Whether a caller is blocked in an await now (it drives progress until it leaves). */
    boolean callerWaiting() {
        return waitingCallers.get() > 0;
    }

    /** How much of the grace after a caller's last issue or wait is left (at most {@code callerGraceNs}). */
    long callerGraceLeftNs() {
        return callerGraceNs - (System.nanoTime() - callerSeenNs);
    }

    /** A caller starts ({@code +1}) or stops ({@code -1}) waiting. */
    void callerWaiting(int delta) {
        int now = waitingCallers.addAndGet(delta);
        long nowNs = System.nanoTime();
        callerSeenNs = nowNs;
        if (delta > 0) {
            issuedUnawaited = 0;
            issuesRunAhead = nowNs - lastIssueNs > callerGraceNs;
        }
        // The thread sleeps long while a caller drives progress; the last caller to leave with
        // operations still in flight hands them back at once.
        ProgressAgent t = progressThread;
        if (now == 0 && t != null && ops.hasWork()) t.wake();
    }

    /** A caller starts running its call inline ({@link InlineCalls}) at {@code nowNs}: as {@code callerWaiting(1)}. */
    void callerEnteredInline(long nowNs) {
        waitingCallers.incrementAndGet();
        callerSeenNs = nowNs;
        if (issuedUnawaited != 0) issuedUnawaited = 0;
        if (!callersInline) callersInline = true;
    }

    /**
     * Whether callers run their calls inline and one was seen within {@code ns}: nothing is queued for the
     * thread then, and a queued call ends it ({@link #callerIssuing}), kicking the thread from its sleep.
     */
    boolean callersInline(long ns) {
        return callersInline && System.nanoTime() - callerSeenNs < ns;
    }

    /** Whether the callers' last call ran inline and none has queued one since, however long ago. */
    boolean callersInline() {
        return callersInline;
    }

    /**
     * A caller that ran its call inline stops counting as waiting, at {@code nowNs} (its last clock read,
     * at most a pass old): as {@code callerWaiting(-1)}, but the thread is not woken even if the call was
     * handed on unfinished, since the caller awaits it next.
     */
    void callerLeftInline(long nowNs) {
        waitingCallers.decrementAndGet();
        callerSeenNs = nowNs;
    }

    /** A caller is issuing an operation; called before it is queued, so the thread sees the grace with it. */
    void callerIssuing(long nowNs) {
        callerSeenNs = nowNs;
        lastIssueNs = nowNs;
        issuedUnawaited = issuedUnawaited + 1;
        if (callersInline) callersInline = false;
    }

    /**
     * An operation was queued: wakes the thread if it sleeps deeply, or if it sleeps its cede while nobody waits
     * and the call looks like one its caller will not wait for at once ({@link #wakesCedingThread}).
     */
    void issued() {
        ProgressAgent t = progressThread;
        if (t == null) return;
        if (wakesCedingThread()) t.wakeFromCede();
        t.kick();
    }

    /**
     * Whether a call just queued should end the thread's cede: nobody waits, and either it is the second call
     * since a caller last started waiting (DDP's buckets during backward) or the callers' last wait began more
     * than a grace after their issue (they issue, compute, then wait: a prefetch). Such calls are the thread's
     * to run, and need not wait for its cede to end. A caller that issues and waits at once (the usual loop)
     * never wakes it: each wake-up takes a core from a spinning rank.
     */
    boolean wakesCedingThread() {
        return waitingCallers.get() == 0 && (issuedUnawaited >= 2 || issuesRunAhead);
    }
}
