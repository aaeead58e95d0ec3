package dev.jccl.comm;

import dev.jccl.util.BackoffIdleStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * The communicator's progress thread: calls {@link CommEngine#doWork()} in a loop. While an
 * operation is in flight it backs off from spinning to parks of at most 100 µs; with nothing to do
 * it parks up to a millisecond (an issued operation unparks it at once). When a caller is blocked in
 * {@code await()} that caller drives progress itself and this thread stays parked, so the two never
 * compete for a core.
 */
final class ProgressAgent implements Runnable {
    private static final long QUIET_MAX_PARK_NS = 1_000_000;

    private final CommEngine engine;
    private final Thread thread;
    private volatile boolean running = true;

    ProgressAgent(CommEngine engine, String name) {
        this.engine = engine;
        this.thread = Thread.ofPlatform().daemon().name(name).unstarted(this);
        engine.agentThread(thread);
        thread.start();
    }

    Thread thread() {
        return thread;
    }

    @Override
    public void run() {
        BackoffIdleStrategy busy = BackoffIdleStrategy.defaults();
        BackoffIdleStrategy quiet = new BackoffIdleStrategy(50, 10, 10_000, QUIET_MAX_PARK_NS);
        while (running) {
            boolean assisted = engine.callersWaiting();
            int work = assisted ? 0 : engine.tryProgress();
            if (engine.hasWork() && !assisted) {
                quiet.reset();
                busy.idle(work);
            } else {
                busy.reset();
                quiet.idle(work);
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
