package dev.jccl.verbs;

/**
 * An opened device. Owns its protection domains and completion queues; {@link #close()} destroys
 * them all, flushing outstanding work with {@link WcStatus#WR_FLUSH_ERR}. Thread-safe.
 */
public interface DeviceContext extends AutoCloseable {
    Device device();

    ProtectionDomain allocPd();

    /**
     * Creates a completion queue holding up to {@code depth} unpolled completions. If more complete
     * than it holds, the queue fails loudly: the next {@code poll} throws {@link VerbsException}
     * (CQ overrun), as verbs raise an async error, rather than dropping a completion.
     */
    CompletionQueue createCq(int depth);

    /**
     * How a thread that polls this context's completion queues, and waits on nothing else, may sleep
     * until they have something; null (the default) when only polling notices progress.
     */
    default ActivityWait activityWait() {
        return null;
    }

    /**
     * Whether this context moves data on threads of its own (tcp's senders and receivers), which
     * need cores while a caller waits; false (the default) when only its pollers move it.
     */
    default boolean movesDataOnOwnThreads() {
        return false;
    }

    @Override
    void close();
}
