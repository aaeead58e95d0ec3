package dev.jccl.verbs;

/**
 * Completion queue, as in {@code ibv_cq}.
 *
 * <p>One consumer thread polls; providers' threads produce. {@link #poll} never blocks and
 * allocates nothing on success. {@link #await} blocks at most {@code timeoutNs}, spinning briefly,
 * then yielding, then parking, so many waiters on few cores do not starve each other.
 */
public interface CompletionQueue extends AutoCloseable {
    int depth();

    /**
     * Copies up to {@code out.length} completions into {@code out} (whose elements the caller owns
     * and reuses) and returns how many. Throws {@link VerbsException} if the queue overran.
     */
    int poll(WorkCompletion[] out);

    /**
     * Like {@link #poll} but waits up to {@code timeoutNs} for at least one completion. Returns 0
     * when the time ran out.
     */
    int await(WorkCompletion[] out, long timeoutNs);

    @Override
    void close();
}
