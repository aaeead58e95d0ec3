package dev.jccl.provider.ucx;

import dev.jccl.util.WaitPolicy;
import dev.jccl.verbs.base.BasicCompletionQueue;

/**
 * A completion queue whose consumer drives its context's worker: polling runs
 * {@code ucp_worker_progress}, so a waiter that spins on its queue also moves the transfers it waits
 * for, without a hand-off from the progress agent.
 */
final class UcxCompletionQueue extends BasicCompletionQueue {
    private final UcxContext context;

    UcxCompletionQueue(UcxContext context, int depth, WaitPolicy wait) {
        super(depth, wait, WaitPolicy.CqKind.IN_PROCESS);
        this.context = context;
    }

    @Override
    protected int progress() {
        return context.tryProgress();
    }
}
