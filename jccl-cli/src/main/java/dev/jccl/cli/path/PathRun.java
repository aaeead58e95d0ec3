package dev.jccl.cli.path;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.Work;
import dev.jccl.cli.perf.coll.CollTest;
import dev.jccl.trace.DataPathCounters;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Runs one collective once on this rank, from a heap array or a native segment, and returns what
 * the data-path counters saw during it: the difference of two snapshots around the call. Both
 * buffers are out of place, so the array form differs from the segment form by its staging copies alone.
 */
final class PathRun {
    private PathRun() {}

    /** {@code shared}: the buffers come from {@link Communicator#allocate}, so peers on this host may read them in place. */
    static DataPathCounters.Snapshot measure(Communicator comm, CollTest test, long bytes, boolean array, boolean shared) {
        int n = comm.size();
        long count = test.count(bytes, 4, n);
        long inElems = test.inputElems(count, n);
        long outElems = test.outputElems(count, n);
        if (array) {
            float[] in = new float[(int) inElems];
            float[] out = new float[(int) outElems];
            java.util.Arrays.fill(in, comm.rank() + 1);
            comm.barrier().await();
            DataPathCounters.Snapshot before = DataPathCounters.snapshot();
            arrays(comm, test, in, out).await();
            return settle(comm, before);
        }
        try (Arena arena = Arena.ofShared()) {
            MemorySegment in = shared ? comm.allocate(Math.max(4, inElems * 4)) : arena.allocate(Math.max(4, inElems * 4), 64);
            MemorySegment out = shared ? comm.allocate(Math.max(4, outElems * 4)) : arena.allocate(Math.max(4, outElems * 4), 64);
            in.fill((byte) 1);
            comm.barrier().await();
            DataPathCounters.Snapshot before = DataPathCounters.snapshot();
            segments(comm, test, in, out, count).await();
            return settle(comm, before);
        }
    }

    /** The counters once every rank is done (a receiver's last copies happen after the sender's call completes). */
    private static DataPathCounters.Snapshot settle(Communicator comm, DataPathCounters.Snapshot before) {
        comm.barrier().await();
        return DataPathCounters.snapshot().since(before);
    }

    private static Work arrays(Communicator c, CollTest test, float[] in, float[] out) {
        return switch (test) {
            case ALLREDUCE -> c.allReduce(in, out, ReduceOp.SUM);
            case REDUCE_SCATTER -> c.reduceScatter(in, out, ReduceOp.SUM);
            case ALL_GATHER -> c.allGather(in, out);
            case BROADCAST -> c.broadcast(in, 0);
            case REDUCE -> c.reduce(in, out, ReduceOp.SUM, 0);
            case ALLTOALL -> c.allToAll(in, out);
        };
    }

    private static Work segments(Communicator c, CollTest test, MemorySegment in, MemorySegment out, long count) {
        DataType t = DataType.FLOAT32;
        return switch (test) {
            case ALLREDUCE -> c.allReduce(in, out, count, t, ReduceOp.SUM);
            case REDUCE_SCATTER -> c.reduceScatter(in, out, count, t, ReduceOp.SUM);
            case ALL_GATHER -> c.allGather(in, out, count, t);
            case BROADCAST -> c.broadcast(in, out, count, t, 0);
            case REDUCE -> c.reduce(in, out, count, t, ReduceOp.SUM, 0);
            case ALLTOALL -> c.allToAll(in, out, count, t);
        };
    }
}
