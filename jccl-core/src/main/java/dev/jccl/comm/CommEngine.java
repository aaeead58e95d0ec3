package dev.jccl.comm;

import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.trace.Timeline;
import dev.jccl.util.Agent;
import dev.jccl.util.WaitPolicy;
import dev.jccl.verbs.ActivityWait;
import java.util.concurrent.locks.LockSupport;

/**
 * The runtime of one communicator, as an {@link Agent}: one progress pass over its parts, and
 * everything that can stop it. The parts: the {@link OpQueue} (issue order, the current operation,
 * starting the next), the {@link ProgressHandOff} (who runs the passes: a waiting caller or the
 * {@link ProgressAgent} thread, under the progress lock) and {@link Failures} (stall and board
 * watch, failure fan-out across ranks).
 *
 * <p><b>Progress.</b> {@link #doWork()} polls every link, starts the next operation (connecting
 * links it needs), advances the current one, returns credits, and watches for stalls; it returns
 * how much it did, for the caller's idle strategy. It runs under the progress lock only.
 *
 * <p><b>Failure.</b> The first failure (a chunk with another operation's fingerprint, a link in
 * ERR, no progress for JCCL_TIMEOUT, another rank's published failure) is published through the
 * {@link AbortBoard} unless another rank's came first; then every link is moved to ERR so the
 * peers notice at once, every rank's flight recorder is gathered (bounded), and the current and
 * every queued operation fail with the report. The communicator stays failed.
 */
final class CommEngine implements Agent, AutoCloseable {
    /** What operations run on: links over the transports, scratch memory, and the timeline they record on. */
    record Resources(Transports transports, LinkTable links, Scratch scratch, Timeline timeline) {}

    private final String roleName;
    private final Resources res;
    private final OpQueue ops;
    private final Failures failures;
    private final WaitPolicy wait;
    private final ProgressHandOff progress;
    private volatile Failure failure;
    private volatile boolean closed;
    private boolean released;
    /** Set while closing: every operation is done and peers may tear their links down. */
    private volatile boolean draining;

    CommEngine(String roleName, Resources res, OpQueue ops, Failures failures, WaitPolicy wait) {
        this.roleName = roleName;
        this.res = res;
        this.ops = ops;
        this.failures = failures;
        this.wait = wait;
        this.progress = new ProgressHandOff(this, ops, wait.callerGraceNs());
    }

    @Override public String roleName() { return roleName; }
    int rank() { return failures.rank(); }
    /** Where chunk transfers and reductions are recorded (JCCL_TRACE), or {@link Timeline#DISABLED}. */
    Timeline timeline() { return res.timeline(); }
    Failure failure() { return failure; }
    WaitPolicy waitPolicy() { return wait; }
    ProgressHandOff progress() { return progress; }
    OpQueue ops() { return ops; }
    String providerFor(int peer) { return res.transports().choose(peer); }
    java.lang.foreign.MemorySegment allocate(long bytes) { return res.transports().allocate(bytes); }
    FlightRecorder recorder() { return failures.recorder(); }

    /** A caller starts ({@code +1}) or stops ({@code -1}) waiting; see {@link ProgressHandOff}. */
    void callerWaiting(int delta) {
        progress.callerWaiting(delta);
    }

    /**
     * How a waiting caller sleeps once it has spun and yielded: on the sockets of a tcp-only
     * communicator ({@link ActivityWait}), so a peer's frame or a pushed completion wakes it at once,
     * else a timed park. Both bounded by {@code ns} (the socket wait rounds up to its 1 ms timer).
     */
    void callerSleep(long ns) {
        ActivityWait w = res.transports().activityWait();
        if (w != null) {
            w.sleep(ns);
        } else {
            LockSupport.parkNanos(this, ns);
        }
    }

    /** An operation finished: a caller asleep on the sockets for it must look now. */
    void operationFinished() {
        ActivityWait w = res.transports().activityWait();
        if (w != null) w.wakeup();
    }

    /** Whether a transport moves data on threads of its own, which a spinning caller would keep off a core. */
    boolean threadsBeside() {
        return res.transports().threadsBeside();
    }

    /** Runs {@link #doWork()} if no other thread is; returns the work done. */
    int tryProgress() {
        return progress.tryProgress();
    }

    /**
     * As {@link #tryProgress()} for a caller in a bounded await: its pass does not start an operation that
     * would connect links, since connecting waits for the peer up to JCCL_TIMEOUT, not up to the caller's
     * deadline. It hands that start to the progress thread, which runs it even while callers wait.
     */
    int tryProgressWithoutConnecting() {
        return progress.tryProgress(withoutConnecting);
    }

    private final Agent withoutConnecting = new Agent() {
        @Override public String roleName() { return roleName; }
        @Override public int doWork() { return pass(true, CLOCK_AFTER_PASS, false); }
    };

    void submit(Operation op) {
        long now = System.nanoTime();
        progress.callerIssuing(now);
        ops.add(op, now);
        progress.issued();
    }

    /**
     * Starts {@code op} as the current operation on its caller's thread ({@link InlineCalls}); a
     * failure to build its run fails the communicator as it would on the progress thread. Progress lock held.
     */
    void startInline(Operation op, long nowNs) {
        try {
            ops.startInline(op, nowNs);
        } catch (Throwable t) {
            onFailure(t);
        }
    }

    /** Whether nothing progressed for JCCL_TIMEOUT plus a grace period (the agent should have failed it by then). */
    boolean stalledBeyondTimeout() {
        return failures.stalledBeyondTimeout(ops.lastProgressNs());
    }

    String describeStall() {
        return ops.describeCurrent();
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
    @Override
    public int doWork() {
        return pass(true, CLOCK_AFTER_PASS, true);
    }

    /**
     * Pass {@code n} (counted across calls) of a caller running LL calls inline ({@link InlineCalls}): as {@link #doWork()},
     * but the links' completion queues are polled and credits returned only every
     * {@link #INLINE_LINK_POLL_EVERY}th pass. LL sends are unsignaled and its messages are polled in
     * the inbox, so for an LL call those queues hold nothing it waits for: a peer's failure (an
     * error completion) or a Simple chunk where LL was expected (a mismatch) is still seen, a few
     * passes later. Polling every link's queue each pass was most of the spin's time (JFR).
     */
    int doWorkInline(long n, long nowNs) {
        return pass(n % INLINE_LINK_POLL_EVERY == 0, nowNs, true);
    }

    static final int INLINE_LINK_POLL_EVERY = 16;
    /** For {@link #pass}: no time given, read the clock once the pass is done. */
    private static final long CLOCK_AFTER_PASS = Long.MIN_VALUE;

    /**
     * One progress pass; {@code nowNs} marks it as progress or idle time, and {@code mayConnect} says whether
     * it may start an operation that connects links ({@link OpQueue#advance}). An inline caller gives the time
     * it read for its own spin bound (one pass earlier): the stall and idle bounds are JCCL_TIMEOUT's scale,
     * and a clock read is 25 ns, a tenth of an 8 B shm call's passes.
     */
    private int pass(boolean pollLinks, long nowNs, boolean mayConnect) {
        if (closed) return 0;
        Failure failed = failure;
        if (failed != null) return ops.failQueued(failed);
        int work = 0;
        try {
            // A new operation posts its first sends before the poll: they are what the peers wait for, and over tcp
            // a poll is a read per socket ahead of them (2 ranks, 8 B: 13.6 against 19.5 µs per call, ARCHITECTURE).
            // Only a pass that may not connect can defer a start; the others (every inline pass) skip the reads.
            boolean deferred = !mayConnect && ops.startDeferred();
            if (pollLinks && ops.current() == null) work += ops.advance(mayConnect);
            if (pollLinks) work += res.links().pollAll();
            work += ops.advance(mayConnect);
            if (!mayConnect && !deferred && ops.startDeferred()) progress.wakeThread();
            if (work == 0 && pollLinks) work += res.links().flushCredits();
            long now = nowNs != CLOCK_AFTER_PASS ? nowNs : System.nanoTime();
            if (work > 0) ops.progressed(now);
            else failures.watchIdle(now, ops.current(), ops.lastProgressNs());
        } catch (Throwable t) {
            if (draining && !ops.hasWork()) {
                closed = true; // a peer closed first; nothing of ours needs the links any more
                Log.info(Subsys.COLL, "rank %d: closing: a peer closed first, as expected at the end (%s)", rank(), t.getMessage());
                return 0;
            }
            onFailure(t);
            work++;
        }
        return work;
    }

    private void onFailure(Throwable t) {
        Failure f = failures.handle(t, ops.current());
        Log.warn(Subsys.COLL, "%s", f.message());
        failAll(f);
    }

    /** Makes the communicator failed: the current operation gets the report, queued ones are told they never ran. */
    private void failAll(Failure f) {
        failure = f;
        ops.failAll(f);
    }

    /** Fails everything with an application abort, tells the other ranks, and breaks every link. */
    void abort() {
        progress.exclusively(() -> {
            if (failure != null || closed) return;
            Failure f = failures.abortedHere();
            Failures.record(failures.rank(), f, ops.current() == null ? null : ops.current().desc());
            failAll(f);
        });
    }

    /** Frees links, devices and memory; the caller stopped the agent first. */
    @Override
    public void close() {
        progress.exclusively(() -> {
            if (released) return;
            released = true;
            closed = true;
            res.links().close();
            res.transports().close();
            res.scratch().close();
        });
    }
}
