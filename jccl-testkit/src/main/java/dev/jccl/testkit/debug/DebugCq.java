package dev.jccl.testkit.debug;

import dev.jccl.verbs.CompletionQueue;
import dev.jccl.verbs.WorkCompletion;

/**
 * A completion queue whose polls first release what its context holds back and sit out the rank's
 * stall; the completions themselves are the inner queue's.
 */
final class DebugCq implements CompletionQueue {
    private final CompletionQueue inner;
    private final DebugContext context;
    private final Injector injector;

    DebugCq(CompletionQueue inner, DebugContext context, Injector injector) {
        this.inner = inner;
        this.context = context;
        this.injector = injector;
    }

    static CompletionQueue inner(CompletionQueue cq) {
        return cq instanceof DebugCq d ? d.inner : cq;
    }

    @Override
    public int depth() {
        return inner.depth();
    }

    @Override
    public int poll(WorkCompletion[] out) {
        injector.stallIfDue();
        context.tick();
        return inner.poll(out);
    }

    @Override
    public int await(WorkCompletion[] out, long timeoutNs) {
        injector.stallIfDue();
        context.tick();
        // Held requests are released by the context's timer meanwhile, so a long wait still sees them go.
        return inner.await(out, timeoutNs);
    }

    @Override
    public void close() {
        inner.close();
    }
}
