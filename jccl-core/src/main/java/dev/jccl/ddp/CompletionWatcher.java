package dev.jccl.ddp;

import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;

import java.util.concurrent.LinkedBlockingQueue;

/**
 * A thread that looks at the launched buckets, in launch order, and stamps each one's completion
 * soon after it happens, so the timing of communication does not depend on how often the training
 * thread looks. It only asks {@code isDone()} and parks between looks (50 µs up to 0.5 ms): it never
 * drives the collectives' progress itself, so on a host with more ranks than cores it takes next to
 * no CPU from backward. Stamps are at most one park late; the training thread's own wait in
 * {@code finish()} stamps what it sees first.
 */
final class CompletionWatcher implements AutoCloseable {
    private final LinkedBlockingQueue<Launch> queue = new LinkedBlockingQueue<>();
    private final Thread thread;
    private volatile boolean running = true;

    CompletionWatcher(String name) {
        thread = Thread.ofPlatform().daemon().name(name).start(this::run);
    }

    void watch(Launch launch) {
        queue.add(launch);
    }

    private void run() {
        BackoffIdleStrategy idle = WaitPolicy.completionWatcher();
        while (running) {
            Launch next;
            try {
                next = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            idle.reset();
            // A collective that never completes fails the training thread's bounded wait, which
            // closes this watcher; until then it keeps looking.
            while (running && !next.seenDone()) {
                next.poll();
                if (!next.seenDone()) idle.idle();
            }
        }
    }

    /** Stops looking; bounded. */
    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
