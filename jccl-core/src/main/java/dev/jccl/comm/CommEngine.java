package dev.jccl.comm;

import dev.jccl.exec.Kernels;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.trace.Timeline;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The runtime of one communicator: the queue of issued operations, run one at a time in issue
 * order (all channels of the current one together), and everything that can stop them.
 *
 * <p><b>Progress.</b> {@link #doWork()} polls every link, starts the next operation (connecting
 * links it needs), advances the current one, returns credits, and watches for stalls; it returns
 * how much it did, for the caller's idle strategy. It runs under the progress lock, taken by the
 * agent thread ({@link ProgressAgent}) or by a caller blocked in {@link dev.jccl.Work#await()} — one
 * at a time, never both.
 *
 * <p><b>Failure.</b> The first failure (a chunk with another operation's fingerprint, a link in
 * ERR, no progress for JCCL_TIMEOUT, another rank's published failure) is published through the
 * {@link AbortBoard} unless another rank's came first; then every link is moved to ERR so the
 * peers notice at once, every rank's flight recorder is gathered (bounded), and the current and
 * every queued operation fail with the report. The communicator stays failed.
 */
final class CommEngine implements AutoCloseable {
    private final int rank;
    private final int size;
    private final long timeoutNs;
    private final long pollNs;
    private final Transports transports;
    private final LinkTable links;
    private final RunBuilder runs;
    private final Scratch scratch;
    private final FlightRecorder recorder;
    private final AbortBoard board;
    private final IdlePolicy idlePolicy;
    private final Failures failures;
    private final ConcurrentLinkedQueue<Operation> queue = new ConcurrentLinkedQueue<>();
    private final ReentrantLock progressLock = new ReentrantLock();
    private final AtomicInteger waitingCallers = new AtomicInteger();
    private volatile Operation current;
    private volatile Failure failure;
    private volatile long lastProgressNs = System.nanoTime();
    /**
     * When a caller last issued or waited. The agent leaves progress to callers for a moment after
     * that: a thread that holds the progress lock and loses its core stalls everyone behind the
     * lock, and with more threads than cores an agent competing with a caller that is about to wait
     * does exactly that.
     */
    private volatile long callerSeenNs;
    private static final long CALLER_GRACE_NS = 100_000;
    private volatile ProgressAgent agent;
    private long lastBoardPollNs;
    private volatile boolean closed;
    private boolean released;
    /** Set while closing: every operation is done and peers may tear their links down. */
    private volatile boolean draining;
    private final Timeline timeline;
    /** {@link #checkBoard} as the connect wait's abort check, made once rather than per operation. */
    private final LinkTable.AbortCheck boardCheck = this::checkBoard;

    CommEngine(int rank, int size, long timeoutNs, Transports transports, LinkTable links, PlanCache plans, Scratch scratch,
               FlightRecorder recorder, AbortBoard board, Kernels kernels, IdlePolicy idlePolicy, Timeline timeline) {
        this.rank = rank;
        this.size = size;
        this.timeoutNs = timeoutNs;
        this.pollNs = Math.clamp(timeoutNs / 20, 10_000_000L, 250_000_000L);
        this.transports = transports;
        this.links = links;
        this.runs = new RunBuilder(size, plans, links, scratch, kernels, timeline);
        this.timeline = timeline;
        this.scratch = scratch;
        this.recorder = recorder;
        this.board = board;
        this.idlePolicy = idlePolicy;
        long gatherNs = Math.clamp(timeoutNs / 2, 200_000_000L, 3_000_000_000L);
        this.failures = new Failures(rank, size, gatherNs, board, links, recorder);
    }

    int rank() { return rank; }
    /** Where chunk transfers and reductions are recorded (JCCL_TRACE), or {@link Timeline#DISABLED}. */
    Timeline timeline() { return timeline; }
    Failure failure() { return failure; }
    IdlePolicy idlePolicy() { return idlePolicy; }
    String providerFor(int peer) { return transports.choose(peer); }
    FlightRecorder recorder() { return recorder; }
    boolean hasWork() { return current != null || !queue.isEmpty(); }
    /** Whether a caller drives progress now, or did a moment ago and will probably be back (issue, then await). */
    boolean callerActive() {
        return callerWaiting() || callerGraceLeftNs() > 0;
    }

    /** Whether a caller is blocked in an await now (it drives progress until it leaves). */
    boolean callerWaiting() {
        return waitingCallers.get() > 0;
    }

    /** How much of the grace after a caller's last issue or wait is left (at most {@link #CALLER_GRACE_NS}). */
    long callerGraceLeftNs() {
        return CALLER_GRACE_NS - (System.nanoTime() - callerSeenNs);
    }

    void callerWaiting(int delta) {
        int now = waitingCallers.addAndGet(delta);
        callerSeenNs = System.nanoTime();
        // The agent sleeps long while a caller drives progress; the last caller to leave with
        // operations still in flight hands them back at once.
        ProgressAgent a = agent;
        if (now == 0 && a != null && hasWork()) a.wake();
    }
    void agent(ProgressAgent a) { agent = a; }

    void submit(Operation op) {
        lastProgressNs = System.nanoTime();
        callerSeenNs = lastProgressNs;
        queue.add(op);
        ProgressAgent a = agent;
        if (a != null) a.kick();
    }

    /** Runs {@link #doWork()} if no other thread is; returns the work done. */
    int tryProgress() {
        if (!progressLock.tryLock()) return 0;
        try {
            return doWork();
        } finally {
            progressLock.unlock();
        }
    }

    /** Whether nothing progressed for JCCL_TIMEOUT plus a grace period (the agent should have failed it by then). */
    boolean stalledBeyondTimeout() {
        return System.nanoTime() - lastProgressNs > timeoutNs + Math.min(timeoutNs, 2_000_000_000L);
    }

    String describeStall() {
        Operation op = current;
        return op == null ? "no operation is running" : "running " + op.desc.describe() + " (seq " + op.desc.opSeq() + ")";
    }

    /**
     * From now on every operation of this rank has completed and the ranks are closing: a peer
     * that closes its links is no failure, so this rank stops looking at them.
     */
    void drain() {
        draining = true;
    }

    /** Whether closing need not wait for the other ranks: a failure, or a peer already gone. */
    boolean nothingToWaitFor() {
        return failure != null || closed;
    }

    /** One progress pass; see the class comment. Caller holds the progress lock. */
    int doWork() {
        if (closed) return 0;
        if (failure != null) return failQueued();
        int work = 0;
        try {
            work += links.pollAll();
            if (current == null) work += startNext();
            Operation op = current;
            if (op != null) {
                work += op.run.advance();
                if (op.run.finished()) {
                    finish(op);
                    work++;
                }
            }
            if (work == 0) work += links.flushCredits();
            long now = System.nanoTime();
            if (work > 0) lastProgressNs = now;
            else watch(now);
        } catch (Throwable t) {
            if (draining && current == null && queue.isEmpty()) {
                closed = true; // a peer closed first; nothing of ours needs the links any more
                Log.info(Subsys.COLL, "rank %d: closing: a peer closed first, as expected at the end (%s)", rank, t.getMessage());
                return 0;
            }
            onFailure(t);
            work++;
        }
        return work;
    }

    private int startNext() {
        Operation op = queue.poll();
        if (op == null) return 0;
        current = op;
        op.entry.started();
        lastProgressNs = System.nanoTime();
        if (op.beforeStart != null) op.beforeStart.run();
        op.run = runs.build(op, boardCheck);
        lastProgressNs = System.nanoTime();
        return 1;
    }

    private void finish(Operation op) {
        if (op.afterSuccess != null) op.afterSuccess.run();
        current = null;
        op.entry.ended(true);
        if (op.afterEnd != null) op.afterEnd.run();
        op.work.complete();
    }

    /** Nothing progressed in this pass: time out a stuck operation, and look at the board now and then. */
    private void watch(long now) {
        Operation op = current;
        if (op != null && now - lastProgressNs > timeoutNs) throw new Failures.StallTimeout(now - lastProgressNs);
        if ((op == null || now - lastProgressNs > pollNs) && now - lastBoardPollNs > pollNs) {
            lastBoardPollNs = now;
            checkBoard();
        }
    }

    /** Throws {@link Failures.AbortSeen} when another rank has published a failure. */
    void checkBoard() {
        var rec = board.poll();
        if (rec.isPresent()) throw new Failures.AbortSeen(rec.get());
    }

    private void onFailure(Throwable t) {
        Failure f = failures.handle(t, current);
        Log.warn(Subsys.COLL, "%s", f.message());
        failAll(f);
    }

    /** Makes the communicator failed: the current operation gets the report, queued ones are told they never ran. */
    private void failAll(Failure f) {
        failure = f;
        Operation op = current;
        if (op != null) {
            current = null;
            op.entry.ended(false);
            if (op.afterEnd != null) op.afterEnd.run();
            op.work.fail(f.exceptionFor(op.desc, true));
        }
        failQueued();
    }

    private int failQueued() {
        int n = 0;
        Operation op;
        while ((op = queue.poll()) != null) {
            op.entry.ended(false);
            if (op.afterEnd != null) op.afterEnd.run();
            op.work.fail(failure.exceptionFor(op.desc, false));
            n++;
        }
        return n;
    }

    /** Fails everything with an application abort, tells the other ranks, and breaks every link. */
    void abort() {
        progressLock.lock();
        try {
            if (failure != null || closed) return;
            String why = "rank " + rank + " aborted the communicator";
            try {
                board.raise(new AbortRecord(Failure.Kind.ABORTED, rank, -1, why));
            } catch (RuntimeException storeDown) {
                // the other ranks learn of it from the broken links
            }
            links.breakAll();
            failAll(new Failure(Failure.Kind.ABORTED, "rank " + rank + ": " + why + "\n" + recorder.dump(rank), -1, null));
        } finally {
            progressLock.unlock();
        }
    }

    /** Frees links, devices and memory; the caller stopped the agent first. */
    @Override
    public void close() {
        progressLock.lock();
        try {
            if (released) return;
            released = true;
            closed = true;
            links.close();
            transports.close();
            scratch.close();
        } finally {
            progressLock.unlock();
        }
    }
}
