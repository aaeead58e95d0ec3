package dev.jccl;

import java.time.Duration;
import java.util.Optional;

/**
 * An issued operation. Operations of one communicator complete in issue order, like a stream: when
 * {@link #await()} of operation n returns, every operation issued before it has completed too.
 * Thread-safe.
 */
public interface Work {
    /**
     * This operation's sequence number on this rank: 1 for the first operation, then 2, 3, ... A
     * small allreduce that its caller ran to the end before the call returned (JCCL_INLINE) returns
     * a handle shared by every such call, already done; its number is the latest such call's.
     */
    long seq();

    /** Whether the operation has finished, successfully or not. Never blocks. */
    boolean isDone();

    /**
     * Blocks until the operation completes. Bounded: if the communicator makes no progress for
     * JCCL_TIMEOUT the operation fails with {@link CommTimeoutException}; other failures throw their
     * {@link JcclException}. While waiting, the calling thread helps drive the communicator's
     * progress, so a blocking call costs no thread hand-off.
     */
    void await();

    /**
     * Waits at most {@code timeout}. Returns true when the operation completed, false when it is
     * still running (it keeps running); throws when it failed.
     */
    boolean await(Duration timeout);

    /** The failure, once the operation failed. */
    Optional<JcclException> exception();
}
