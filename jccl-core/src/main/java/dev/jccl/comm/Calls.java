package dev.jccl.comm;

import dev.jccl.trace.DataPathCounters;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;

import java.lang.foreign.MemorySegment;

/**
 * Checks each kind of call and binds its buffers, following NCCL's in-place conventions: allReduce,
 * broadcast and reduce are in place when input and output start at the same address;
 * reduceScatter when the output is block {@code rank} of the input; allGather when the input is
 * block {@code rank} of the output. Anything else that overlaps is refused.
 */
final class Calls {
    /** One per kind of call, made once: a check allocates nothing unless it fails, even where the JIT does not scalar-replace. */
    private static final CallChecks ALL_REDUCE = new CallChecks("allReduce");
    private static final CallChecks REDUCE_SCATTER = new CallChecks("reduceScatter");
    private static final CallChecks ALL_GATHER = new CallChecks("allGather");
    private static final CallChecks BROADCAST = new CallChecks("broadcast");
    private static final CallChecks REDUCE = new CallChecks("reduce");
    private static final CallChecks ALL_TO_ALL = new CallChecks("allToAll");
    private static final CallChecks SEND = new CallChecks("send");
    private static final CallChecks RECV = new CallChecks("recv");
    private final int rank;
    private final int size;
    private final Thread progress;
    private final Scratch staging;

    Calls(int rank, int size, Thread progress, Scratch staging) {
        this.rank = rank;
        this.size = size;
        this.progress = progress;
        this.staging = staging;
    }

    /**
     * The first {@code bytes} of {@code seg}: the segment itself when that is all of it (the usual
     * case, a buffer sized for the call), so such a call makes no view object.
     */
    static MemorySegment view(MemorySegment seg, long bytes) {
        return seg.byteSize() == bytes ? seg : seg.asSlice(0, bytes);
    }

    Operation allReduce(MemorySegment in, MemorySegment out, long count, DataType type, ReduceOp op) {
        long bytes = checkAllReduce(in, out, count, type, op);
        return Operation.bound(view(in, bytes), in, view(out, bytes), out, in.address() == out.address());
    }

    /** Checks an allReduce (in place when {@code in} and {@code out} start at the same address); returns its bytes. */
    long checkAllReduce(MemorySegment in, MemorySegment out, long count, DataType type, ReduceOp op) {
        CallChecks c = ALL_REDUCE;
        long bytes = c.bytes(count, type);
        c.op(op);
        c.buffer(in, "input", bytes, false, progress);
        c.buffer(out, "output", bytes, true, progress);
        if (in.address() != out.address()) c.disjoint(in, bytes, out, bytes);
        return bytes;
    }

    Operation reduceScatter(MemorySegment in, MemorySegment out, long count, DataType type, ReduceOp op) {
        CallChecks c = REDUCE_SCATTER;
        long bytes = c.bytes(count, type);
        long inBytes = c.times(bytes, size);
        c.op(op);
        c.buffer(in, "input", inBytes, false, progress);
        c.buffer(out, "output", bytes, true, progress);
        boolean inPlace = out.address() == in.address() + rank * bytes;
        if (!inPlace) c.disjoint(in, inBytes, out, bytes);
        return Operation.bound(view(in, inBytes), in, view(out, bytes), out, inPlace);
    }

    Operation allGather(MemorySegment in, MemorySegment out, long count, DataType type) {
        CallChecks c = ALL_GATHER;
        long bytes = c.bytes(count, type);
        long outBytes = c.times(bytes, size);
        c.buffer(in, "input", bytes, false, progress);
        c.buffer(out, "output", outBytes, true, progress);
        boolean inPlace = in.address() == out.address() + rank * bytes;
        if (!inPlace) c.disjoint(in, bytes, out, outBytes);
        return Operation.bound(view(in, bytes), in, view(out, outBytes), out, inPlace);
    }

    Operation broadcast(MemorySegment in, MemorySegment out, long count, DataType type, int root) {
        CallChecks c = BROADCAST;
        long bytes = c.bytes(count, type);
        c.rank(root, size, "root");
        c.buffer(out, "output", bytes, true, progress);
        if (rank != root) return Operation.bound(null, null, view(out, bytes), out, false);
        c.buffer(in, "input", bytes, false, progress);
        boolean inPlace = in.address() == out.address();
        if (!inPlace) c.disjoint(in, bytes, out, bytes);
        return Operation.bound(view(in, bytes), in, view(out, bytes), out, inPlace);
    }

    Operation reduce(MemorySegment in, MemorySegment out, long count, DataType type, ReduceOp op, int root) {
        CallChecks c = REDUCE;
        long bytes = c.bytes(count, type);
        c.op(op);
        c.rank(root, size, "root");
        c.buffer(in, "input", bytes, false, progress);
        if (rank != root) return Operation.bound(view(in, bytes), in, null, null, false);
        c.buffer(out, "output", bytes, true, progress);
        boolean inPlace = in.address() == out.address();
        if (!inPlace) c.disjoint(in, bytes, out, bytes);
        return Operation.bound(view(in, bytes), in, view(out, bytes), out, inPlace);
    }

    /** In place (same address) the input is copied aside when the operation starts, since blocks move both ways. */
    Operation allToAll(MemorySegment in, MemorySegment out, long count, DataType type) {
        CallChecks c = ALL_TO_ALL;
        long total = c.times(c.bytes(count, type), size);
        c.buffer(in, "input", total, false, progress);
        c.buffer(out, "output", total, true, progress);
        MemorySegment outView = view(out, total);
        if (in.address() != out.address()) {
            c.disjoint(in, total, out, total);
            return Operation.bound(view(in, total), in, outView, out, false);
        }
        MemorySegment aside = staging.acquire(total);
        Operation o = Operation.bound(view(aside, total), aside, outView, out, false);
        o.beforeStart = () -> {
            MemorySegment.copy(outView, 0, aside, 0, total);
            DataPathCounters.add(DataPathCounters.Counter.RUNTIME_COPY_BYTES, total);
        };
        o.afterEnd = () -> staging.release(aside);
        return o;
    }

    Operation send(MemorySegment buf, long count, DataType type, int peer) {
        CallChecks c = SEND;
        long bytes = c.bytes(count, type);
        c.peer(peer, rank, size);
        c.buffer(buf, "send", bytes, false, progress);
        return Operation.bound(view(buf, bytes), buf, null, null, false);
    }

    Operation recv(MemorySegment buf, long count, DataType type, int peer) {
        CallChecks c = RECV;
        long bytes = c.bytes(count, type);
        c.peer(peer, rank, size);
        c.buffer(buf, "receive", bytes, true, progress);
        return Operation.bound(null, null, view(buf, bytes), buf, false);
    }
}
