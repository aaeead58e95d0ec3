package dev.jccl.verbs.shm;

import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;

import java.lang.foreign.MemorySegment;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * The context's daemon thread. Every JCCL_HEARTBEAT it
 * <ol>
 *   <li>bumps this context's heartbeat (release-store; peers acquire-load it),</li>
 *   <li>asks every attached peer whether it is alive ({@link RemoteContext#deathCause}) and moves
 *       the queue pairs connected to a dead one to ERR, flushing with the peer's pid in the detail,</li>
 *   <li>runs {@code progress()} on every queue pair, so a peer queue pair that went to ERR, or an
 *       RNR bound that passed, is noticed even when nobody polls.</li>
 * </ol>
 * A peer killed with SIGKILL is therefore noticed within one period plus the time to flush.
 */
final class ShmWatchdog implements Runnable {
    private final ShmContext context;
    private final MemorySegment control;
    private final long periodNs;
    private final Thread thread;
    private final Set<ShmPaths> filesRemoved = new HashSet<>(); // watchdog thread only
    private volatile boolean stopped;
    private long heartbeat; // watchdog thread only

    ShmWatchdog(ShmContext context, MemorySegment control, long periodNs) {
        this.context = context;
        this.control = control;
        this.periodNs = periodNs;
        this.thread = Thread.ofPlatform().daemon().name("jccl-shm-watchdog-" + context.paths().stem()).start(this);
    }

    @Override
    public void run() {
        while (!stopped) {
            try {
                tick();
            } catch (RuntimeException e) {
                Log.warn(Subsys.SHM, "watchdog of %s: %s", context.paths().stem(), e);
            }
            LockSupport.parkNanos(this, periodNs);
        }
    }

    private void tick() {
        SharedWords.setLongRelease(control, ControlDescriptor.HEARTBEAT_OFFSET, ++heartbeat);
        Map<RemoteContext, String> dead = context.deadPeers(System.nanoTime());
        for (ShmProtectionDomain pd : context.protectionDomains()) {
            for (ShmQueuePair qp : pd.queuePairs()) {
                if (stopped) return;
                RemoteContext peer = qp.peer();
                String cause = peer == null ? null : dead.get(peer);
                if (cause != null) qp.peerLost(cause);
                else qp.progress();
            }
        }
        dead.forEach((rc, cause) -> {
            // A dead process cannot remove its files; do it for it once its pid is certainly gone.
            if (rc.pidVisible() && !Processes.isAlive(rc.pid()) && filesRemoved.add(rc.paths())) {
                StaleFiles.removeAll(rc.paths());
                Log.info(Subsys.SHM, "%s; removed its files %s*", cause, rc.paths().stem());
            }
        });
    }

    /** Stops the thread, waiting for a tick in progress at most {@code timeoutNs}. */
    void stop(long timeoutNs) {
        stopped = true;
        LockSupport.unpark(thread);
        if (Thread.currentThread() == thread) return;
        try {
            thread.join(Math.max(1, timeoutNs / 1_000_000));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
