package dev.jccl.provider.ucx;

import dev.jccl.util.Agent;
import dev.jccl.util.BackoffIdleStrategy;

import java.util.concurrent.TimeUnit;

/**
 * Keeps a context's worker progressing when nobody polls its completion queues: a put from a tcp
 * peer, an rkey request, an RNR deadline or a peer's death all need someone to call
 * {@code ucp_worker_progress}. A consumer waiting on a CQ progresses the worker itself (it takes the
 * lock first and this agent skips a turn), so the agent backs off quickly to parking and its naps
 * cost latency only to traffic nobody waits for.
 */
final class ProgressAgent implements Agent {
    private static final long TICK_NS = TimeUnit.MILLISECONDS.toNanos(2);
    private static final long PEER_CHECK_NS = TimeUnit.MILLISECONDS.toNanos(250);

    private final UcxContext context;
    private final BackoffIdleStrategy idle = new BackoffIdleStrategy(20, 10, TimeUnit.MICROSECONDS.toNanos(20),
            TimeUnit.MILLISECONDS.toNanos(1));
    private final Thread thread;
    private volatile boolean running = true;
    private long lastTickNs;
    private long lastPeerCheckNs;

    ProgressAgent(UcxContext context) {
        this.context = context;
        this.thread = Thread.ofPlatform().daemon().name("jccl-ucx-progress").unstarted(this::run);
    }

    void start() {
        thread.start();
    }

    @Override
    public int doWork() {
        int n = context.tryProgress();
        long now = System.nanoTime();
        if (now - lastTickNs >= TICK_NS) {
            lastTickNs = now;
            boolean peers = now - lastPeerCheckNs >= PEER_CHECK_NS;
            if (peers) lastPeerCheckNs = now;
            context.tick(peers);
        }
        return n;
    }

    @Override
    public String roleName() {
        return "jccl-ucx-progress";
    }

    private void run() {
        while (running) idle.idle(doWork());
    }

    /** Stops the thread and waits (bounded) for it to leave the worker alone. */
    void stop() {
        running = false;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
