package dev.jccl.comm;

import dev.jccl.exec.OpRun;

import java.lang.foreign.MemorySegment;

/**
 * One issued operation on its way through the engine: what it is, the memory it binds, the hooks
 * that stage arrays in and out, and (once started) its run. Made by the call's checks with its
 * memory bound ({@link Calls}), then numbered when issued; the engine's queue publishes it to the
 * progress thread.
 *
 * @see CommEngine
 */
final class Operation {
    OpDescriptor desc;
    FlightRecorder.Entry entry;
    WorkImpl work;
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
        o.in = in;
        o.inOwner = inOwner;
        o.out = out;
        o.outOwner = outOwner;
        o.inPlace = inPlace;
        return o;
    }

    /** Numbers the operation as it is queued. */
    void issued(OpDescriptor desc, FlightRecorder.Entry entry, WorkImpl work) {
        this.desc = desc;
        this.entry = entry;
        this.work = work;
    }
}
