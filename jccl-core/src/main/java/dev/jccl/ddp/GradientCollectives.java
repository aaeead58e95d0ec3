package dev.jccl.ddp;

import dev.jccl.DataType;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * The collectives data parallelism needs, each started asynchronously and completed in issue order
 * (like a stream): every rank must issue the same calls in the same order. Element counts follow from
 * the segment sizes and the type. Implementations must give every rank bit-identical results and must
 * bound every wait (a peer that never arrives fails the call instead of hanging it).
 *
 * <p>Called from one thread (the training thread); the returned {@link Pending}s may complete on
 * another.
 */
public interface GradientCollectives {
    int rank();

    int worldSize();

    /** Copies {@code buffer} of {@code root} into {@code buffer} of every other rank. */
    Pending broadcast(MemorySegment buffer, DataType type, int root);

    /** In place: {@code buffer} becomes the element-wise sum over ranks. */
    Pending allReduceSum(MemorySegment buffer, DataType type);

    /**
     * {@code input} holds worldSize equal blocks; {@code output} (one block) becomes the sum over ranks
     * of block {@code rank()}.
     */
    Pending reduceScatterSum(MemorySegment input, MemorySegment output, DataType type);

    /** {@code output} (worldSize blocks) becomes every rank's {@code input}, in rank order. */
    Pending allGather(MemorySegment input, MemorySegment output, DataType type);

    /**
     * Memory for bucket buffers, zeroed: where the collectives can read it in place (a communicator's
     * shared memory, see {@code Communicator.allocate}), peers reduce straight from it. By default
     * from {@code fallback}, which the caller frees; otherwise freed when the collectives' owner closes.
     */
    default MemorySegment allocate(long bytes, Arena fallback) {
        return fallback.allocate(bytes, 8);
    }

    /** A started collective. */
    interface Pending {
        /** True once the result is in place. Never blocks. */
        boolean isDone();

        /**
         * Blocks until the result is in place; bounded by the implementation's timeout. Throws with the
         * cause when the collective failed on this rank or a peer.
         */
        void await();
    }
}
