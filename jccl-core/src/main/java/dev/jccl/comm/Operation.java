package dev.jccl.comm;

import dev.jccl.exec.OpRun;

import java.lang.foreign.MemorySegment;

/**
 * One issued operation on its way through the engine: what it is, the memory it binds, the hooks
 * that stage arrays in and out, and (once started) its run.
 *
 * @see CommEngine
 */
final class Operation {
    final OpDescriptor desc;
    final FlightRecorder.Entry entry;
    final WorkImpl work;
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

    Operation(OpDescriptor desc, FlightRecorder.Entry entry, WorkImpl work) {
        this.desc = desc;
        this.entry = entry;
        this.work = work;
    }

    void bind(MemorySegment in, MemorySegment inOwner, MemorySegment out, MemorySegment outOwner, boolean inPlace) {
        this.in = in;
        this.inOwner = inOwner;
        this.out = out;
        this.outOwner = outOwner;
        this.inPlace = inPlace;
    }
}
