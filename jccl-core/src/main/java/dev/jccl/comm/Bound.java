package dev.jccl.comm;

import java.lang.foreign.MemorySegment;

/**
 * A checked call's memory: INPUT and OUTPUT views sized exactly as the schedule expects (null where
 * this rank has none), the caller's segments they lie in, whether the call is in place, and hooks
 * for calls that stage (run when the operation starts, and when it ends either way).
 */
record Bound(MemorySegment in, MemorySegment inOwner, MemorySegment out, MemorySegment outOwner, boolean inPlace,
             Runnable beforeStart, Runnable afterEnd) {
    /** A call that binds no memory (barrier). */
    static final Bound NONE = of(null, null, null, null, false);

    static Bound of(MemorySegment in, MemorySegment inOwner, MemorySegment out, MemorySegment outOwner, boolean inPlace) {
        return new Bound(in, inOwner, out, outOwner, inPlace, null, null);
    }
}
