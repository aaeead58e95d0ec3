package dev.jccl.util;

/**
 * What a waiting thread does when the last attempt found no work.
 *
 * <p>Callers pass the amount of work the last attempt did; a positive count resets the strategy, zero
 * advances it. Implementations are not thread-safe: each waiting thread owns its own instance.
 */
public interface IdleStrategy {
    /** Called after each attempt; {@code workCount > 0} means progress was made and resets backoff. */
    void idle(int workCount);

    /** Called after an attempt that found nothing to do. */
    void idle();

    /** Forget accumulated backoff, as if work had just been found. */
    void reset();
}
