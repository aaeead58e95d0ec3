package dev.jccl.cli.launch;

import dev.jccl.bootstrap.TcpStoreServer;
import dev.jccl.util.Deadline;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The running ranks of one node. {@link #await()} watches them: the first rank to exit non-zero (or
 * be killed) ends the job, and so does the overall timeout; then every rank still running is sent
 * SIGTERM (its children first), given the grace period, and killed with SIGKILL if still there.
 *
 * <p>{@link #stop(String)} may be called from any thread (the Ctrl-C hook) while {@link #await()}
 * runs; stopping is serialized and happens once.
 */
public final class LaunchedJob {
    /** How often an unbounded wait wakes to re-check; it has nothing else to do. */
    private static final long POLL_NS = TimeUnit.SECONDS.toNanos(1);
    /** After SIGKILL the kernel reaps at once; this only guards against an unkillable process. */
    private static final long REAP_NS = TimeUnit.SECONDS.toNanos(5);
    /** Output left in the pipes after a rank exits is drained within this. */
    private static final long DRAIN_NS = TimeUnit.SECONDS.toNanos(2);

    private final List<RankProcess> ranks;
    private final TcpStoreServer store;
    private final int firstRank;
    private final long timeoutNs;
    private final long graceNs;
    private final BlockingQueue<Integer> exited = new LinkedBlockingQueue<>();
    private volatile String stopReason;
    private boolean stopped; // guarded by this
    private int stoppedRanks; // guarded by this

    LaunchedJob(List<RankProcess> ranks, TcpStoreServer store, int firstRank, long timeoutNs, long graceNs) {
        this.ranks = List.copyOf(ranks);
        this.store = store;
        this.firstRank = firstRank;
        this.timeoutNs = timeoutNs;
        this.graceNs = graceNs;
        for (int i = 0; i < this.ranks.size(); i++) {
            int local = i;
            this.ranks.get(i).process().onExit().thenRun(() -> exited.add(local));
        }
    }

    /** Process id of local rank {@code localRank}. */
    public long pid(int localRank) {
        return ranks.get(localRank).process().pid();
    }

    /** Port of the store this launcher hosts, or -1 on nodes other than 0. */
    public int storePort() {
        return store == null ? -1 : store.port();
    }

    /** Stops every rank (SIGTERM, grace, SIGKILL) and records why; returns once they are gone. */
    public void stop(String reason) {
        if (stopReason == null) stopReason = reason;
        stopAll();
    }

    /** Blocks until the job ends (all ranks exit, one fails, or the timeout runs out) and reports it. */
    public LaunchResult await() {
        Deadline deadline = timeoutNs > 0 ? Deadline.after(timeoutNs) : null;
        int running = ranks.size();
        int failedRank = -1;
        int failedStatus = 0;
        boolean timedOut = false;
        try {
            while (running > 0) {
                long waitNs = deadline == null ? POLL_NS : Math.min(POLL_NS, deadline.remainingNs());
                Integer local = exited.poll(waitNs, TimeUnit.NANOSECONDS);
                if (local == null) {
                    if (deadline != null && deadline.expired()) {
                        timedOut = stopReason == null;
                        break;
                    }
                    continue;
                }
                running--;
                int status = ranks.get(local).process().exitValue();
                if (status != 0 && stopReason == null) {
                    failedRank = firstRank + local;
                    failedStatus = status;
                    break;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (stopReason == null) stopReason = "interrupted";
        }
        int stoppedNow = stopAll();
        drainOutput();
        if (store != null) store.close();
        List<Integer> codes = new ArrayList<>();
        for (RankProcess r : ranks) codes.add(r.process().isAlive() ? -1 : r.process().exitValue());
        String reason = failedRank >= 0 || timedOut ? null : stopReason;
        return new LaunchResult(firstRank, codes, failedRank, failedStatus, stoppedNow, timedOut, reason, timeoutNs,
                ranks.stream().map(RankProcess::capturedLines).toList());
    }

    /** Terminates what still runs; returns how many ranks were running when the first stop began. */
    private synchronized int stopAll() {
        if (stopped) return stoppedRanks;
        stopped = true;
        List<Process> alive = ranks.stream().map(RankProcess::process).filter(Process::isAlive).toList();
        stoppedRanks = alive.size();
        for (Process p : alive) {
            p.descendants().forEach(ProcessHandle::destroy); // a wrapper script's java child goes too
            p.destroy();
        }
        if (!awaitExit(alive, graceNs)) {
            for (Process p : alive) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            }
            awaitExit(alive, REAP_NS);
        }
        return stoppedRanks;
    }

    private static boolean awaitExit(List<Process> ps, long timeoutNs) {
        try {
            CompletableFuture.allOf(ps.stream().map(Process::onExit).toArray(CompletableFuture[]::new))
                    .get(timeoutNs, TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            return false;
        }
    }

    /** Lets the pumps print what the ranks wrote last; bounded, since a grandchild may hold a pipe open. */
    private void drainOutput() {
        Deadline d = Deadline.after(DRAIN_NS);
        for (RankProcess r : ranks) {
            for (Thread t : List.of(r.stdoutPump(), r.stderrPump())) {
                try {
                    t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(d.remainingNs())));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
