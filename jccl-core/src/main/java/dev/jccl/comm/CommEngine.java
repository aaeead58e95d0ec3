package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.exec.Bindings;
import dev.jccl.exec.ChannelProgram;
import dev.jccl.exec.ExecFailure;
import dev.jccl.exec.OpRun;
import dev.jccl.exec.OpSpec;
import dev.jccl.reduce.ReduceKernels;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;

import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
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
    private final long gatherNs;
    private final Transports transports;
    private final LinkTable links;
    private final PlanCache plans;
    private final Scratch scratch;
    private final FlightRecorder recorder;
    private final AbortBoard board;
    private final ReduceKernels kernels;
    private final UserMemory memory = new UserMemory();
    private final ConcurrentLinkedQueue<Operation> queue = new ConcurrentLinkedQueue<>();
    private final ReentrantLock progressLock = new ReentrantLock();
    private final AtomicInteger waitingCallers = new AtomicInteger();
    private volatile Operation current;
    private volatile Failure failure;
    private volatile long lastProgressNs = System.nanoTime();
    private volatile Thread agent;
    private long lastBoardPollNs;
    private boolean closed;

    CommEngine(int rank, int size, long timeoutNs, Transports transports, LinkTable links, PlanCache plans, Scratch scratch,
               FlightRecorder recorder, AbortBoard board, ReduceKernels kernels) {
        this.rank = rank;
        this.size = size;
        this.timeoutNs = timeoutNs;
        this.pollNs = Math.clamp(timeoutNs / 20, 10_000_000L, 250_000_000L);
        this.gatherNs = Math.clamp(timeoutNs / 2, 200_000_000L, 3_000_000_000L);
        this.transports = transports;
        this.links = links;
        this.plans = plans;
        this.scratch = scratch;
        this.recorder = recorder;
        this.board = board;
        this.kernels = kernels;
    }

    int rank() { return rank; }
    Failure failure() { return failure; }
    FlightRecorder recorder() { return recorder; }
    boolean hasWork() { return current != null || !queue.isEmpty(); }
    boolean callersWaiting() { return waitingCallers.get() > 0; }
    void callerWaiting(int delta) { waitingCallers.addAndGet(delta); }
    void agentThread(Thread t) { agent = t; }

    void submit(Operation op) {
        lastProgressNs = System.nanoTime();
        queue.add(op);
        Thread a = agent;
        if (a != null) LockSupport.unpark(a);
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
            work += links.flushCredits();
            long now = System.nanoTime();
            if (work > 0) lastProgressNs = now;
            else watch(now);
        } catch (Throwable t) {
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
        OpDescriptor d = op.desc;
        DataType type = d.kind() == OpKind.BARRIER ? DataType.UINT8 : d.type();
        PlanCache.Compiled c = plans.get(d.kind(), d.count(), type, d.root(), op.inPlace);
        links.ensure(c.programs(), this::checkBoard);
        MemorySegment[] scratchOf = new MemorySegment[c.programs().length];
        for (ChannelProgram p : c.programs()) {
            if (p.scratchElems() > 0) scratchOf[p.channel()] = scratch.channel(p.channel(), type.bytes(p.scratchElems()));
        }
        Bindings bindings = new Bindings(op.in, op.inOwner, op.out, op.outOwner, scratchOf, memory);
        boolean avg = d.op() == ReduceOp.AVG;
        ReduceOp with = d.op() == null || avg ? ReduceOp.SUM : d.op();
        OpSpec spec = new OpSpec(type, with, kernels, d.fingerprint());
        op.run = OpRun.start(c.programs(), links, bindings, spec, avg ? op.out : null, d.count(), size);
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
        if (op != null && now - lastProgressNs > timeoutNs) throw new StallTimeout(op, now - lastProgressNs);
        if ((op == null || now - lastProgressNs > pollNs) && now - lastBoardPollNs > pollNs) {
            lastBoardPollNs = now;
            checkBoard();
        }
    }

    /** Throws {@link AbortSeen} when another rank has published a failure. */
    void checkBoard() {
        var rec = board.poll();
        if (rec.isPresent()) throw new AbortSeen(rec.get());
    }

    private void onFailure(Throwable t) {
        Operation op = current;
        OpDescriptor mine = op == null ? null : op.desc;
        Set<Integer> waitingOn = new TreeSet<>();
        String localState = op == null || op.run == null ? null : "waiting: " + op.run.describeWaiting(waitingOn);
        AbortRecord first;
        try {
            first = firstFailure(t, mine, waitingOn);
        } catch (RuntimeException storeDown) {
            first = new AbortRecord(Failure.Kind.ERROR, rank, -1, t + " (and the store failed too: " + storeDown.getMessage() + ")");
        }
        links.breakAll();
        java.util.Map<Integer, java.util.List<FlightRecorder.Published>> recs;
        try {
            board.publishRecorder(recorder);
            recs = board.gatherRecorders(gatherNs);
        } catch (RuntimeException storeDown) {
            recs = java.util.Map.of(rank, FlightRecorder.decode(recorder.encode()));
        }
        Failure f = FailureReport.build(first, rank, size, recs, mine, localState, recorder.dump(rank),
                t instanceof AbortSeen || t instanceof StallTimeout || t instanceof ExecFailure ? null : t);
        failure = f;
        Log.warn(Subsys.COLL, "%s", f.message());
        if (op != null) {
            current = null;
            op.entry.ended(false);
            if (op.afterEnd != null) op.afterEnd.run();
            op.work.fail(f.exceptionFor(op.desc, true));
        }
        failQueued();
    }

    private AbortRecord firstFailure(Throwable t, OpDescriptor mine, Set<Integer> waitingOn) {
        String where = mine == null ? "between operations" : mine.describe() + " (seq " + mine.opSeq() + " on rank " + rank + ")";
        return switch (t) {
            case AbortSeen a -> a.record;
            case ExecFailure.Mismatch m -> board.raise(new AbortRecord(Failure.Kind.MISMATCH, rank, -1,
                    "detected by rank " + rank + " in " + where + ": " + m.getMessage()));
            case ExecFailure.LinkLost l -> board.poll().orElseGet(() -> board.raise(new AbortRecord(Failure.Kind.PEER_LOST, rank,
                    l.peer(), "rank " + rank + " lost its link to rank " + l.peer() + " in " + where + ": " + l.getMessage())));
            case StallTimeout s -> board.raise(new AbortRecord(Failure.Kind.TIMEOUT, rank, -1, where + " made no progress for "
                    + s.stalledNs / 1_000_000 + " ms (JCCL_TIMEOUT); rank " + rank + " waits on " + FailureReport.ranks(java.util.List.copyOf(waitingOn))));
            case LinkTable.ConnectTimeoutException c -> board.raise(new AbortRecord(Failure.Kind.TIMEOUT, rank, -1,
                    where + " could not start: " + c.getMessage()));
            default -> board.raise(new AbortRecord(Failure.Kind.ERROR, rank, -1, where + " failed on rank " + rank + ": " + t));
        };
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
            failure = new Failure(Failure.Kind.ABORTED, "rank " + rank + ": " + why + "\n" + recorder.dump(rank), -1, null);
            Operation op = current;
            if (op != null) {
                current = null;
                op.entry.ended(false);
                if (op.afterEnd != null) op.afterEnd.run();
                op.work.fail(failure.exceptionFor(op.desc, true));
            }
            failQueued();
        } finally {
            progressLock.unlock();
        }
    }

    /** Frees links, devices and memory; the caller stopped the agent first. */
    @Override
    public void close() {
        progressLock.lock();
        try {
            if (closed) return;
            closed = true;
            links.close();
            transports.close();
            scratch.close();
        } finally {
            progressLock.unlock();
        }
    }

    /** Another rank published a failure. */
    private static final class AbortSeen extends RuntimeException {
        final AbortRecord record;

        AbortSeen(AbortRecord record) {
            super(record.reason(), null, false, false);
            this.record = record;
        }
    }

    /** The current operation made no progress for JCCL_TIMEOUT. */
    private static final class StallTimeout extends RuntimeException {
        final long stalledNs;

        StallTimeout(Operation op, long stalledNs) {
            super(op.desc.describe(), null, false, false);
            this.stalledNs = stalledNs;
        }
    }
}
