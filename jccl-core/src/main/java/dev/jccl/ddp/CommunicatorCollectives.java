package dev.jccl.ddp;

import dev.jccl.Communicator;
import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.Work;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * {@link GradientCollectives} over a {@link Communicator}: each call is one collective of the
 * communicator's stream, so ordering, bit-identical results and the JCCL_TIMEOUT bound on every wait
 * are the communicator's. Buffers handed in must be native (the buckets are).
 */
public final class CommunicatorCollectives implements GradientCollectives {
    private final Communicator comm;

    public CommunicatorCollectives(Communicator comm) {
        this.comm = Objects.requireNonNull(comm, "communicator");
    }

    /** From {@link Communicator#allocate}: freed when the communicator closes, not with {@code fallback}. */
    @Override
    public MemorySegment allocate(long bytes, Arena fallback) {
        return comm.allocate(bytes);
    }

    @Override
    public int rank() {
        return comm.rank();
    }

    @Override
    public int worldSize() {
        return comm.size();
    }

    @Override
    public Pending broadcast(MemorySegment buffer, DataType type, int root) {
        return wrap(comm.broadcast(buffer, count(buffer, type), type, root));
    }

    @Override
    public Pending allReduceSum(MemorySegment buffer, DataType type) {
        return wrap(comm.allReduce(buffer, count(buffer, type), type, ReduceOp.SUM));
    }

    @Override
    public Pending reduceScatterSum(MemorySegment input, MemorySegment output, DataType type) {
        return wrap(comm.reduceScatter(input, output, count(output, type), type, ReduceOp.SUM));
    }

    @Override
    public Pending allGather(MemorySegment input, MemorySegment output, DataType type) {
        return wrap(comm.allGather(input, output, count(input, type), type));
    }

    private static long count(MemorySegment buffer, DataType type) {
        if (buffer.byteSize() % type.byteSize() != 0) {
            throw new IllegalArgumentException(buffer.byteSize() + " bytes is not a whole number of " + type.ncclName() + " elements");
        }
        return buffer.byteSize() / type.byteSize();
    }

    private static Pending wrap(Work work) {
        return new Pending() {
            @Override
            public boolean isDone() {
                return work.isDone();
            }

            @Override
            public void await() {
                work.await();
            }
        };
    }
}
