package dev.jccl.comm;

import dev.jccl.util.BackoffIdleStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * The communicator's progress thread: calls {@link CommEngine#doWork()} whenever no caller does.
 *
 * <ul>
 *   <li>A caller blocked in {@code await()} drives progress itself; this thread then only naps
 *       ({@value #NAP_NS} ns at a time), so the two never compete for a core. It also keeps napping
 *       for a moment after a caller issued or stopped waiting, since most callers wait right after
 *       issuing (see {@code CommEngine.callerActive()}).</li>
 *   <li>With an operation in flight and nobody waiting (issued asynchronously), it polls with the
 *       communicator's {@link IdlePolicy}.</li>
 *   <li>With nothing to do it naps, and after {@value #DEEP_AFTER_NS} ns of quiet sleeps up to a
 *       millisecond at a time, marked as deep asleep; only then does issuing an operation unpark it.
 *       So a loop of issue-and-await never pays for waking a thread, yet an asynchronous operation
 *       after a long pause starts at once.</li>
 * </ul>
 */
final class ProgressAgent implements Runnable {
    private static final long NAP_NS = 50_000;
    private static final long DEEP_AFTER_NS = 5_000_000;
    private static final long DEEP_NS = 1_000_000;

    private final CommEngine engine;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile boolean deepAsleep;

    ProgressAgent(CommEngine engine, String name) {
        this.engine = engine;
        this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this);
        engine.agent(this);
        thread.start();
    }

    Thread thread() {
        return thread;
    }

    /** Called after an operation is queued: wakes this thread if it sleeps deeply. */
    void kick() {
        if (deepAsleep) LockSupport.unpark(thread);
    }

    @Override
    public void run() {
        BackoffIdleStrategy busy = engine.idlePolicy().newStrategy();
        long lastActiveNs = System.nanoTime();
        while (running) {
            if (engine.callerActive()) {
                LockSupport.parkNanos(NAP_NS);
                lastActiveNs = System.nanoTime();
                continue;
            }
            int work = engine.tryProgress();
            if (work > 0 || engine.hasWork()) {
                lastActiveNs = System.nanoTime();
                busy.idle(work);
                continue;
            }
            busy.reset();
            if (System.nanoTime() - lastActiveNs < DEEP_AFTER_NS) {
                LockSupport.parkNanos(NAP_NS);
            } else {
                deepAsleep = true;
                if (!engine.hasWork() && running) LockSupport.parkNanos(DEEP_NS);
                deepAsleep = false;
            }
        }
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
