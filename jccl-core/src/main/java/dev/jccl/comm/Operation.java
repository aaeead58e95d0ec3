package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.JcclException;
import dev.jccl.ReduceOp;
import dev.jccl.exec.OpRun;

import java.lang.foreign.MemorySegment;

/**
 * One issued operation on its way through the engine: what it is, the memory it binds, the hooks
 * that stage arrays in and out, and (once started) its run. Made by the call's checks with its
 * memory bound ({@link Calls}), then numbered when issued; the engine's queue publishes it to the
 * progress thread.
 *
 * <p>The fields of its descriptor are kept beside it, so that a call run inline by its caller
 * ({@link InlineCalls}, which reuses one operation) makes no descriptor unless a failure or a
 * diagnostic asks for it ({@link #desc()}).
 *
 * @see CommEngine
 */
final class Operation {
    private OpDescriptor desc;
    long opSeq;
    OpKind kind;
    long matchSeq;
    long count;
    DataType type;
    ReduceOp redop;
    int root;
    FlightRecorder.Entry entry;
    /** The caller's handle; null while the caller runs the operation inline ({@link #inlineDone}, {@link #inlineFailure}). */
    WorkImpl work;
    boolean inlineDone;
    JcclException inlineFailure;
    /** INPUT and OUTPUT as views, and the caller's segments they lie in (what gets registered). */
    MemorySegment in;
    MemorySegment inOwner;
    MemorySegment out;
    MemorySegment outOwner;
    boolean inPlace;
    /** Runs when the operation starts, in stream order (copies staged input in). */
    Runnable beforeStart;
    /** Runs when it completed successfully, before the work reports done (copies output out). */
    Runnable afterSuccess;
    /** Runs when it ended either way (returns staging memory). */
    Runnable afterEnd;
    OpRun run;

    /**
     * A checked call's memory: INPUT and OUTPUT views sized exactly as the schedule expects (null
     * where this rank has none), the caller's segments they lie in, and whether the call is in place.
     */
    static Operation bound(MemorySegment in, MemorySegment inOwner, MemorySegment out, MemorySegment outOwner, boolean inPlace) {
        Operation o = new Operation();
        o.bind(in, inOwner, out, outOwner, inPlace);
        return o;
    }

    void bind(MemorySegment in, MemorySegment inOwner, MemorySegment out, MemorySegment outOwner, boolean inPlace) {
        this.in = in;
        this.inOwner = inOwner;
        this.out = out;
        this.outOwner = outOwner;
        this.inPlace = inPlace;
    }

    /** Queues the {@link #numbered} operation with its flight-recorder entry and its caller's handle. */
    void issued(FlightRecorder.Entry entry, WorkImpl work) {
        this.entry = entry;
        this.work = work;
    }

    /** Numbers the operation without a descriptor (made on demand by {@link #desc()}). */
    void numbered(long opSeq, OpKind kind, long matchSeq, long count, DataType type, ReduceOp redop, int root) {
        this.desc = null;
        this.opSeq = opSeq;
        this.kind = kind;
        this.matchSeq = matchSeq;
        this.count = count;
        this.type = type;
        this.redop = redop;
        this.root = root;
    }

    /** What it is, as ranks must agree on it. */
    OpDescriptor desc() {
        OpDescriptor d = desc;
        if (d == null) desc = d = new OpDescriptor(opSeq, kind, matchSeq, count, type, redop, root);
        return d;
    }

    int fingerprint() {
        return OpDescriptor.fingerprint(kind, matchSeq, count, type, redop, root);
    }

    /**
     * Drops what only the running operation needs (its memory, hooks and run) once it ended: the
     * flight recorder keeps the operation as its entry's description for 32 more operations.
     */
    void release() {
        bind(null, null, null, null, inPlace);
        beforeStart = null;
        afterSuccess = null;
        afterEnd = null;
        run = null;
    }

    /** It ran to the end: the caller's handle reports done. */
    void complete() {
        if (work == null) {
            inlineDone = true;
            return;
        }
        release();
        work.complete();
    }

    void fail(JcclException e) {
        if (work != null) {
            release();
            work.fail(e);
        } else {
            inlineFailure = e;
            inlineDone = true;
        }
    }
}
