package dev.jccl.ddp;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A thread that waits on each launched bucket in launch order and stamps its completion the moment
 * it returns, so the timing of communication does not depend on how often the training thread looks.
 * While it waits, the collectives' own {@code await} drives their progress (a communicator's progress
 * thread then stays parked), and the training thread sleeps on {@link Launch#awaitSettled} rather
 * than waiting alongside it, so watching adds no busy thread.
 *
 * <p>A failed collective is left to the training thread, which meets the same failure in its own
 * wait; the watcher just moves on.
 */
final class CompletionWatcher implements AutoCloseable {
    private static final Launch STOP = new Launch(null, 0);
    private final LinkedBlockingQueue<Launch> queue = new LinkedBlockingQueue<>();
    private final Thread thread;

    CompletionWatcher(String name) {
        thread = Thread.ofPlatform().daemon().name(name).start(this::run);
    }

    void watch(Launch launch) {
        queue.add(launch);
    }

    boolean alive() {
        return thread.isAlive();
    }

    private void run() {
        while (true) {
            Launch next;
            try {
                next = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            if (next == STOP) return;
            try {
                next.await();
            } catch (RuntimeException e) {
                // The training thread's own await reports it.
            } finally {
                next.settle();
            }
        }
    }

    /**
     * Stops once the launches already queued are complete. The caller has awaited them all (close()
     * of the data-parallel object does), so this returns at once; the join is bounded regardless.
     */
    @Override
    public void close() {
        queue.add(STOP);
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (thread.isAlive()) thread.interrupt();
    }
}
