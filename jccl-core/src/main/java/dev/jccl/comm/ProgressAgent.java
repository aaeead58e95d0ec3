package dev.jccl.comm;

import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;

import java.util.concurrent.locks.LockSupport;

/**
 * The communicator's progress thread: runs the engine's {@code doWork()} whenever no caller does
 * ({@link ProgressHandOff}), and sleeps the way {@link WaitPolicy} says, for the reasons given there:
 *
 * <ul>
 *   <li>While callers run their calls inline, it sleeps {@link WaitPolicy#inlineCedeNs()} at a time,
 *       woken at once by an operation queued (as from its deep sleep): nothing is queued for it meanwhile.</li>
 *   <li>While a caller waits, it sleeps ({@link WaitPolicy#cedeNs()} at a time, woken by the last
 *       caller that leaves with work in flight, or by a call issued while nobody waits that its caller
 *       will not wait for at once: {@link ProgressHandOff#wakesCedingThread}), and it naps out the grace after a caller issued or
 *       stopped waiting, so the two never compete for a core. The exception: an operation whose start
 *       connects links, which a caller in a bounded await leaves to this thread.</li>
 *   <li>With an operation in flight and nobody waiting (issued asynchronously), it polls with
 *       {@link WaitPolicy#background()}.</li>
 *   <li>With nothing to do it naps, and after {@link WaitPolicy#deepAfterNs()} of quiet sleeps
 *       deeply, marked as such; only then does issuing an operation unpark it.</li>
 * </ul>
 */
final class ProgressAgent implements Runnable {
    private final ProgressHandOff progress;
    private final OpQueue ops;
    private final WaitPolicy wait;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean deepAsleep;
    private volatile boolean ceding;

    ProgressAgent(CommEngine engine) {
        this.progress = engine.progress();
        this.ops = engine.ops();
        this.wait = engine.waitPolicy();
        this.thread = Thread.ofPlatform().daemon().name(engine.roleName()).unstarted(this);
        progress.thread(this);
        thread.start();
    }

    Thread thread() {
        return thread;
    }

    /** Called after an operation is queued: wakes this thread if it sleeps deeply. */
    void kick() {
        if (deepAsleep) LockSupport.unpark(thread);
    }

    /** Wakes this thread if it sleeps its cede behind a waiting caller: calls are issued on without waiting. */
    void wakeFromCede() {
        if (ceding) LockSupport.unpark(thread);
    }

    /** Wakes this thread from any sleep: the callers left with operations in flight. */
    void wake() {
        LockSupport.unpark(thread);
    }

    @Override
    public void run() {
        BackoffIdleStrategy busy = wait.background().strategy();
        long cedeNs = wait.cedeNs();
        long napNs = wait.napNs();
        long deepAfterNs = wait.deepAfterNs();
        long deepNs = wait.deepSleepNs();
        long inlineCedeNs = wait.inlineCedeNs();
        long lastActiveNs = System.nanoTime();
        while (running) {
            // A caller in a bounded await leaves the start of an operation that connects links to this
            // thread (CommEngine#tryProgressWithoutConnecting): that start does not wait for callers.
            boolean startLeftHere = ops.startDeferred();
            // A caller in an inline call, or between such calls with nothing queued: a call handed on and not
            // awaited (queued work, nobody waiting) is this thread's, and so is everything once callers go quiet.
            if (!startLeftHere && progress.callersInline(deepAfterNs) && (progress.callerWaiting() || !ops.hasWork())) {
                sleepUnlessQueued(inlineCedeNs);
                lastActiveNs = System.nanoTime();
                continue;
            }
            if (progress.callerWaiting() && !startLeftHere) {
                // An issuer reads the waiting count, then this mark: if it saw neither a waiter nor the mark,
                // the second look below sees no waiter either, and the thread does not sleep.
                ceding = true;
                if (progress.callerWaiting()) LockSupport.parkNanos(cedeNs);
                ceding = false;
                lastActiveNs = System.nanoTime();
                continue;
            }
            long graceNs = progress.callerGraceLeftNs();
            if (graceNs > 0 && !startLeftHere) {
                LockSupport.parkNanos(graceNs);
                // Callers that run their calls inline leave nothing queued: that is quiet here, and
                // after deepAfterNs of it this thread sleeps deeply instead of waking every grace.
                if (ops.hasWork()) lastActiveNs = System.nanoTime();
                continue;
            }
            int work = progress.tryProgress();
            if (work > 0 || ops.hasWork()) {
                lastActiveNs = System.nanoTime();
                busy.idle(work);
                continue;
            }
            busy.reset();
            if (System.nanoTime() - lastActiveNs < deepAfterNs) {
                LockSupport.parkNanos(napNs);
            } else {
                deepAsleep = true;
                if (!ops.hasWork() && running) LockSupport.parkNanos(deepNs);
                deepAsleep = false;
            }
        }
    }

    /**
     * Sleeps up to {@code ns}, marked deeply asleep so that an operation queued meanwhile unparks it. The mark is
     * set before callers are looked at again, and a caller queueing clears their mark before it reads this one,
     * so one of the two always sees the other: no wake-up is lost.
     */
    private void sleepUnlessQueued(long ns) {
        deepAsleep = true;
        if (progress.callersInline() && !ops.startDeferred() && running) LockSupport.parkNanos(ns);
        deepAsleep = false;
    }

    /** Stops the loop and waits (bounded) for the thread to leave it. */
    void stop(long timeoutNs) {
        running = false;
        LockSupport.unpark(thread);
        if (Thread.currentThread() == thread) return;
        try {
            thread.join(Math.max(1, timeoutNs / 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
