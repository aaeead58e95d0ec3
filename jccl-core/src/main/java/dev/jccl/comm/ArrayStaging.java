package dev.jccl.comm;

import dev.jccl.trace.DataPathCounters;
import dev.jccl.ArrayCall;
import dev.jccl.DataType;
import dev.jccl.Work;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.HashSet;
import java.util.Set;

/**
 * Collectives on Java arrays: the arrays are copied into pooled native staging buffers when the
 * operation starts (in stream order, so an earlier operation on the same array has finished), the
 * segment form runs on them, and the result is copied back before the operation reports done. The
 * debug log says so once per shape, so the two extra copies are never a surprise.
 */
final class ArrayStaging {
    record Hooks(Runnable beforeStart, Runnable afterSuccess, Runnable afterEnd) {}

    private final CommunicatorImpl comm;
    private final Scratch pool;
    private final int size;
    private final Set<String> logged = new HashSet<>();

    ArrayStaging(CommunicatorImpl comm, Scratch pool, int size) {
        this.comm = comm;
        this.pool = pool;
        this.size = size;
    }

    Work run(ArrayCall call) {
        DataType type = call.type();
        Object in = call.in();
        Object out = call.out();
        int inLen = ArrayCall.length(in);
        int outLen = ArrayCall.length(out);
        String name = kindOf(call.kind()).apiName() + " on arrays";
        CallChecks c = new CallChecks(name);
        boolean atRoot = call.rootOrPeer() == comm.rank();
        long count = switch (call.kind()) {
            case ALL_REDUCE -> sameLength(c, in, out, inLen, outLen);
            case REDUCE_SCATTER -> {
                need(c, in, out);
                if ((long) outLen * size != inLen) throw c.bad("input has " + inLen + " elements; it needs " + size + " x output (" + outLen + ")");
                yield outLen;
            }
            case ALL_GATHER -> {
                need(c, in, out);
                if ((long) inLen * size != outLen) throw c.bad("output has " + outLen + " elements; it needs " + size + " x input (" + inLen + ")");
                yield inLen;
            }
            case BROADCAST, SEND -> inLen;
            case RECV -> outLen;
            case REDUCE -> atRoot ? sameLength(c, in, out, inLen, outLen) : inLen;
            case ALL_TO_ALL -> {
                sameLength(c, in, out, inLen, outLen);
                if (inLen % size != 0) throw c.bad(inLen + " elements do not split into " + size + " equal blocks");
                yield inLen / size;
            }
        };
        if (in == null && call.kind() != ArrayCall.Kind.RECV) throw c.bad("input array is null");
        boolean shared = in == out && call.kind() != ArrayCall.Kind.ALL_TO_ALL;
        boolean readsInput = in != null && (call.kind() != ArrayCall.Kind.BROADCAST || atRoot);
        boolean writesOutput = out != null && (call.kind() != ArrayCall.Kind.BROADCAST || !atRoot)
                && (call.kind() != ArrayCall.Kind.REDUCE || atRoot);
        MemorySegment sIn = in == null ? null : pool.acquire(type.bytes(inLen));
        MemorySegment sOut = out == null || (call.kind() == ArrayCall.Kind.REDUCE && !atRoot) ? null
                : shared ? sIn : pool.acquire(type.bytes(outLen));
        log(type, in != null ? in : out, (readsInput ? 1 : 0) + (writesOutput ? 1 : 0));
        Hooks hooks = new Hooks(
                readsInput ? () -> copyIn(in, sIn) : null,
                writesOutput ? () -> copyOut(sOut, out) : null,
                () -> {
                    if (sIn != null) pool.release(sIn);
                    if (sOut != null && sOut != sIn) pool.release(sOut);
                });
        try {
            return issue(call, count, type, sIn, sOut, hooks);
        } catch (RuntimeException e) {
            hooks.afterEnd().run();
            throw e;
        }
    }

    private Work issue(ArrayCall call, long count, DataType type, MemorySegment in, MemorySegment out, Hooks hooks) {
        Calls calls = comm.calls();
        int r = call.rootOrPeer();
        return switch (call.kind()) {
            case ALL_REDUCE -> comm.issue(OpKind.ALL_REDUCE, count, type, call.op(), 0, calls.allReduce(in, out, count, type, call.op()), hooks);
            case REDUCE_SCATTER -> comm.issue(OpKind.REDUCE_SCATTER, count, type, call.op(), 0,
                    calls.reduceScatter(in, out, count, type, call.op()), hooks);
            case ALL_GATHER -> comm.issue(OpKind.ALL_GATHER, count, type, null, 0, calls.allGather(in, out, count, type), hooks);
            case BROADCAST -> comm.issue(OpKind.BROADCAST, count, type, null, r, calls.broadcast(in, in, count, type, r), hooks);
            case REDUCE -> comm.issue(OpKind.REDUCE, count, type, call.op(), r, calls.reduce(in, out, count, type, call.op(), r), hooks);
            case ALL_TO_ALL -> comm.issue(OpKind.ALL_TO_ALL, count, type, null, 0, calls.allToAll(in, out, count, type), hooks);
            case SEND -> comm.issue(OpKind.SEND, count, type, null, r, calls.send(in, count, type, r), hooks);
            case RECV -> comm.issue(OpKind.RECV, count, type, null, r, calls.recv(out, count, type, r), hooks);
        };
    }

    static OpKind kindOf(ArrayCall.Kind k) {
        return switch (k) {
            case ALL_REDUCE -> OpKind.ALL_REDUCE;
            case REDUCE_SCATTER -> OpKind.REDUCE_SCATTER;
            case ALL_GATHER -> OpKind.ALL_GATHER;
            case BROADCAST -> OpKind.BROADCAST;
            case REDUCE -> OpKind.REDUCE;
            case ALL_TO_ALL -> OpKind.ALL_TO_ALL;
            case SEND -> OpKind.SEND;
            case RECV -> OpKind.RECV;
        };
    }

    private static long sameLength(CallChecks c, Object in, Object out, int inLen, int outLen) {
        need(c, in, out);
        if (inLen != outLen) throw c.bad("input has " + inLen + " elements but output has " + outLen);
        return inLen;
    }

    private static void need(CallChecks c, Object in, Object out) {
        if (in == null || out == null) throw c.bad("input and output arrays are required");
    }

    private void log(DataType type, Object array, int copies) {
        String shape = array.getClass().getComponentType() + "[" + ArrayCall.length(array) + "]";
        boolean first;
        synchronized (logged) {
            first = logged.add(shape);
        }
        String line = "rank %d: staging %s through registered memory: +%d " + (copies == 1 ? "copy" : "copies");
        if (first) Log.info(Subsys.COLL, line, comm.rank(), shape, copies);
        else Log.trace(Subsys.COLL, line, comm.rank(), shape, copies);
    }

    static void copyIn(Object array, MemorySegment seg) {
        DataPathCounters.add(DataPathCounters.Counter.STAGED_BYTES, arrayBytes(array));
        switch (array) {
            case float[] a -> MemorySegment.copy(a, 0, seg, ValueLayout.JAVA_FLOAT, 0, a.length);
            case double[] a -> MemorySegment.copy(a, 0, seg, ValueLayout.JAVA_DOUBLE, 0, a.length);
            case int[] a -> MemorySegment.copy(a, 0, seg, ValueLayout.JAVA_INT, 0, a.length);
            case long[] a -> MemorySegment.copy(a, 0, seg, ValueLayout.JAVA_LONG, 0, a.length);
            default -> throw new IllegalArgumentException("unsupported array " + array.getClass());
        }
    }

    static void copyOut(MemorySegment seg, Object array) {
        DataPathCounters.add(DataPathCounters.Counter.STAGED_BYTES, arrayBytes(array));
        switch (array) {
            case float[] a -> MemorySegment.copy(seg, ValueLayout.JAVA_FLOAT, 0, a, 0, a.length);
            case double[] a -> MemorySegment.copy(seg, ValueLayout.JAVA_DOUBLE, 0, a, 0, a.length);
            case int[] a -> MemorySegment.copy(seg, ValueLayout.JAVA_INT, 0, a, 0, a.length);
            case long[] a -> MemorySegment.copy(seg, ValueLayout.JAVA_LONG, 0, a, 0, a.length);
            default -> throw new IllegalArgumentException("unsupported array " + array.getClass());
        }
    }

    private static long arrayBytes(Object array) {
        return switch (array) {
            case float[] a -> 4L * a.length;
            case double[] a -> 8L * a.length;
            case int[] a -> 4L * a.length;
            case long[] a -> 8L * a.length;
            default -> 0;
        };
    }
}
