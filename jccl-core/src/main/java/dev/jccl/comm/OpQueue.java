package dev.jccl.comm;

import dev.jccl.DataType;

import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The operations of one communicator in issue order, run one at a time (all channels of the
 * current one together), so they complete in issue order like a stream. Callers add from any
 * thread; everything else runs on whichever thread holds the progress lock.
 *
 * <p>It also keeps the time the queue last moved, which is what a stall is measured against: an
 * issue, a start (before and after building the run, which may connect links), and every pass that
 * did some work.
 */
final class OpQueue {
    private final ConcurrentLinkedQueue<Operation> queue = new ConcurrentLinkedQueue<>();
    private final RunBuilder runs;
    private final LinkTable.AbortCheck abortCheck;
    private volatile Operation current;
    private volatile long lastProgressNs = System.nanoTime();
    private volatile boolean startDeferred;

    /** @param abortCheck throws when another rank has failed; called while links are connected */
    OpQueue(RunBuilder runs, LinkTable.AbortCheck abortCheck) {
        this.runs = runs;
        this.abortCheck = abortCheck;
    }

    void add(Operation op, long nowNs) {
        lastProgressNs = nowNs;
        queue.add(op);
    }

    boolean hasWork() {
        return current != null || !queue.isEmpty();
    }

    Operation current() {
        return current;
    }

    long lastProgressNs() {
        return lastProgressNs;
    }

    void progressed(long nowNs) {
        lastProgressNs = nowNs;
    }

    /**
     * Starts the next operation if none runs, advances the current one and finishes it when done. Without
     * {@code mayConnect} (a caller in a bounded await) an operation whose start would connect links is
     * left queued and marked {@link #startDeferred()}: connecting waits for the peer, up to JCCL_TIMEOUT.
     */
    int advance(boolean mayConnect) {
        int work = 0;
        if (current == null) work += startNext(mayConnect);
        Operation op = current;
        if (op != null) {
            work += op.run.advance();
            if (op.run.finished()) {
                finish(op);
                work++;
            }
        }
        return work;
    }

    /**
     * Makes {@code op} the current operation without queuing it: its caller runs it inline
     * ({@link InlineCalls}). Caller holds the progress lock and saw {@link #hasWork()} false.
     */
    void startInline(Operation op, long nowNs) {
        current = op;
        op.entry.started(nowNs);
        lastProgressNs = nowNs;
        op.run = runs.build(op, abortCheck);
    }

    /** Whether the next call of this shape would run on LL with its last run as it is (see {@link RunBuilder#repeatsLl}). */
    boolean repeatsLl(OpKind kind, long count, DataType type, int root, boolean inPlace) {
        return runs.repeatsLl(kind, count, type, root, inPlace);
    }

    /** Whether the next operation waits for a pass that may connect its links (the progress thread's). */
    boolean startDeferred() {
        return startDeferred;
    }

    private int startNext(boolean mayConnect) {
        Operation op = queue.peek();
        if (op == null) return 0;
        if (!mayConnect && runs.connects(op)) {
            startDeferred = true;
            return 0;
        }
        queue.poll();
        startDeferred = false;
        current = op;
        lastProgressNs = System.nanoTime();
        op.entry.started(lastProgressNs);
        if (op.beforeStart != null) op.beforeStart.run();
        op.run = runs.build(op, abortCheck);
        lastProgressNs = System.nanoTime();
        return 1;
    }

    private void finish(Operation op) {
        if (op.afterSuccess != null) op.afterSuccess.run();
        current = null;
        op.entry.ended(true);
        if (op.afterEnd != null) op.afterEnd.run();
        op.complete();
    }

    /** The communicator failed with {@code f}: the current operation gets the report, queued ones are told they never ran. */
    void failAll(Failure f) {
        Operation op = current;
        if (op != null) {
            current = null;
            op.entry.ended(false);
            if (op.afterEnd != null) op.afterEnd.run();
            op.fail(f.exceptionFor(op.desc(), true));
        }
        failQueued(f);
    }

    /** Fails every queued operation with {@code f} (they never ran); returns how many. */
    int failQueued(Failure f) {
        startDeferred = false;
        int n = 0;
        Operation op;
        while ((op = queue.poll()) != null) {
            op.entry.ended(false);
            if (op.afterEnd != null) op.afterEnd.run();
            op.fail(f.exceptionFor(op.desc(), false));
            n++;
        }
        return n;
    }

    String describeCurrent() {
        Operation op = current;
        return op == null ? "no operation is running" : "running " + op.desc().describe() + " (seq " + op.opSeq + ")";
    }
}
