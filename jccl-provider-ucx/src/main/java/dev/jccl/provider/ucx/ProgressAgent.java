package dev.jccl.provider.ucx;

import dev.jccl.util.Agent;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.BackoffIdleStrategy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

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
    private final BackoffIdleStrategy idle;
    private final Thread thread;
    private volatile boolean running = true;
    private long lastTickNs;
    private long lastPeerCheckNs;

    ProgressAgent(UcxContext context) {
        this.context = context;
        // Idle, the agent sleeps on the worker's event fd when the context has network peers and no
        // consumer waits, so traffic nobody polls for (a tcp peer's put, a key request) wakes it at
        // once. On host memory it parks: an armed worker makes every sender signal it, and waking
        // per message took the core from the waiting consumer (8 B write_lat 19 us against 2 us).
        this.idle = new BackoffIdleStrategy(20, 0, 10, TimeUnit.MICROSECONDS.toNanos(20), TimeUnit.MILLISECONDS.toNanos(1),
                ns -> {
                    WorkerWaits waits = context.waits();
                    if (waits.consumerWaiting() || !waits.hasNetworkPeers()) LockSupport.parkNanos(ns); else waits.sleep(ns);
                });
        this.thread = Thread.ofPlatform().daemon().name("jccl-ucx-progress").unstarted(this::run);
    }

    void start() {
        thread.start();
    }

    @Override
    public int doWork() {
        // A consumer waiting on a queue progresses the worker itself; competing for the lock and
        // the core with it (two cores, several ranks) costs more than the agent could add.
        int n = context.waits().consumerWaiting() ? 0 : context.tryProgress();
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
        while (running) {
            try {
                idle.idle(doWork());
            } catch (RuntimeException e) {
                // A failing UCX call must not end progress for every queue pair of the context.
                if (running) Log.warn(Subsys.NET, "NET/UCX progress: %s", e.getMessage());
            }
        }
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
