package dev.jccl;

import java.lang.foreign.MemorySegment;

/**
 * A group of ranks that run collectives together, like an NCCL communicator or an MPI
 * communicator. Made by {@link Jccl#init()} or {@link #split}.
 *
 * <p><b>Ordering.</b> Every call returns a {@link Work} at once and runs on the communicator's
 * progress thread; operations complete in issue order, like a stream. All ranks must issue the same
 * collectives in the same order with matching count, type, operator and root; a mismatch fails on
 * every rank with {@link CollectiveMismatchException}. Issue from one thread (or order the calls
 * yourself): the order of calls is the order of the stream.
 *
 * <p><b>Buffers.</b> Counts are in elements of {@code type}. Buffers are native segments that the
 * progress thread may access (global, automatic or shared arenas; not a confined arena) and must
 * not be touched until the operation completes. An out-of-place call's input and output must not
 * overlap; the in-place forms follow NCCL's conventions. The buffers are not copied: sends read
 * them directly, and receives reduce or copy straight into them. Bad arguments (a negative count, a
 * buffer too small for the count, a root outside the group, a heap segment) are refused with
 * {@link IllegalArgumentException} before anything is sent.
 *
 * <p><b>Failure.</b> After any failure (mismatch, timeout, a lost peer, {@link #abort()}) the
 * communicator is unusable: every later call throws {@link CommAbortedException} with the original
 * failure as its cause.
 */
public interface Communicator extends ArrayCollectives, AutoCloseable {
    /** Pass to {@link #split} to take no part in the new communicators. */
    int SPLIT_NONE = -1;

    int rank();

    int size();

    /** This rank's index among the ranks on its host (same JCCL_HOST_ID, else host name). */
    int localRank();

    /** How many ranks share this rank's host. */
    int localSize();

    /**
     * Collective: splits this group into one new communicator per {@code color}, ranks ordered by
     * {@code key} then by rank here. Returns null for {@link #SPLIT_NONE}. Blocks until every rank has
     * called it (at most JCCL_TIMEOUT); it does not wait for operations in flight.
     */
    Communicator split(int color, int key);

    /**
     * Fails every operation in flight or queued with {@link CommAbortedException}, tells the other
     * ranks (their operations fail too), and frees every resource. Idempotent; never blocks longer
     * than JCCL_TIMEOUT.
     */
    void abort();

    /**
     * Completes the operations already issued, waits (at most JCCL_TIMEOUT) until every rank has
     * closed, so no peer still needs a connection, and frees every resource. Idempotent.
     */
    @Override
    void close();

    /** out[i] = in_0[i] op in_1[i] op ... over all ranks; {@code count} elements each. */
    Work allReduce(MemorySegment in, MemorySegment out, long count, DataType type, ReduceOp op);

    default Work allReduce(MemorySegment buf, long count, DataType type, ReduceOp op) {
        return allReduce(buf, buf, count, type, op);
    }

    /**
     * Reduces {@code size() * recvCount} elements and leaves block {@code rank()} of the result in
     * {@code out} ({@code recvCount} elements).
     */
    Work reduceScatter(MemorySegment in, MemorySegment out, long recvCount, DataType type, ReduceOp op);

    /** In place: {@code buf} holds {@code size() * recvCount} elements; the result is its block {@code rank()}. */
    default Work reduceScatter(MemorySegment buf, long recvCount, DataType type, ReduceOp op) {
        return reduceScatter(buf, InPlaceBlocks.of(buf, rank(), recvCount, type, "reduceScatter"), recvCount, type, op);
    }

    /** Gathers every rank's {@code sendCount} elements into {@code out}, block r from rank r. */
    Work allGather(MemorySegment in, MemorySegment out, long sendCount, DataType type);

    /** In place: this rank's contribution is already block {@code rank()} of {@code buf}. */
    default Work allGather(MemorySegment buf, long sendCount, DataType type) {
        return allGather(InPlaceBlocks.of(buf, rank(), sendCount, type, "allGather"), buf, sendCount, type);
    }

    /** Copies {@code root}'s {@code in} into every rank's {@code out}; {@code in} may be null elsewhere. */
    Work broadcast(MemorySegment in, MemorySegment out, long count, DataType type, int root);

    default Work broadcast(MemorySegment buf, long count, DataType type, int root) {
        return broadcast(buf, buf, count, type, root);
    }

    /** Reduces every rank's {@code in} into {@code root}'s {@code out}; {@code out} may be null elsewhere. */
    Work reduce(MemorySegment in, MemorySegment out, long count, DataType type, ReduceOp op, int root);

    default Work reduce(MemorySegment buf, long count, DataType type, ReduceOp op, int root) {
        return reduce(buf, buf, count, type, op, root);
    }

    /**
     * Block r of {@code in} ({@code count} elements) goes to rank r, which stores it as its block
     * {@code rank()} of {@code out}. In place ({@code in == out}) costs one extra copy of the input.
     */
    Work allToAll(MemorySegment in, MemorySegment out, long count, DataType type);

    default Work allToAll(MemorySegment buf, long count, DataType type) {
        return allToAll(buf, buf, count, type);
    }

    /**
     * Sends {@code count} elements to {@code peer}, which must call {@link #recv} with the same count
     * and type. Completes once the data has left this rank's buffer; a send larger than the FIFO
     * (JCCL_BUFFSIZE) also waits for the peer to receive.
     */
    Work send(MemorySegment buf, long count, DataType type, int peer);

    Work recv(MemorySegment buf, long count, DataType type, int peer);

    /** Completes once every rank has called it. */
    Work barrier();

    /**
     * Native memory of {@code bytes} (zeroed, page-aligned) for buffers of this communicator's calls,
     * from the shared memory of the provider that connects this rank with the other ranks on its host
     * (shm), registered there once. Calls whose buffers lie in it let peers on this host read and
     * reduce them in place, saving a copy per chunk (JCCL_DIRECT; {@code jccl path} counts the
     * saved copies); without such peers it is plain memory that every call accepts and copies as
     * usual. Not collective. Freed when the communicator closes (there is no separate free): using
     * the segment afterwards throws, and it may be used only while the communicator is open.
     */
    default MemorySegment allocate(long bytes) {
        throw new UnsupportedOperationException("this communicator does not allocate shared memory");
    }
}
