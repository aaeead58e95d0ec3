package dev.jccl.testkit;

import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.QpState;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.SendWr;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestExecutionExceptionHandler;
import org.opentest4j.TestAbortedException;

import java.util.concurrent.TimeUnit;

/**
 * Base of every group of conformance checks: holds the target, skips (loudly) when it cannot run,
 * and offers the few assertions all groups share.
 */
@ExtendWith(ConformanceCheck.NameTheTarget.class)
public abstract class ConformanceCheck {
    /** Bytes kept after (and where useful before) every target range, checked to be untouched. */
    protected static final long GUARD_BYTES = 4096;
    protected static final long STATE_WAIT_NS = TimeUnit.SECONDS.toNanos(5);

    protected final ProviderTarget target;

    protected ConformanceCheck(ProviderTarget target) {
        this.target = target;
    }

    @BeforeEach
    void requireUsableTarget() {
        target.requireUsable();
    }

    /** Prefixes every failure with the target, so a report line says which provider failed. */
    static final class NameTheTarget implements TestExecutionExceptionHandler {
        @Override
        public void handleTestExecutionException(ExtensionContext context, Throwable failure) throws Throwable {
            if (failure instanceof TestAbortedException
                    || !(context.getRequiredTestInstance() instanceof ConformanceCheck check)) {
                throw failure;
            }
            String what = failure instanceof AssertionError ? failure.getMessage() : failure.toString();
            AssertionError named = new AssertionError("[" + check.target + "] " + what, failure);
            named.setStackTrace(failure.getStackTrace());
            throw named;
        }
    }

    protected EndpointPair connected() {
        return EndpointPair.connected(target);
    }

    protected EndpointPair connected(EndpointPair.Options options) {
        return EndpointPair.connected(target, options);
    }

    /** A region of {@code bytes} plus a guard, shareable, all filled with pattern {@code seed}. */
    protected static MemoryRegion filledRegion(Endpoint end, long bytes, long seed) {
        MemoryRegion r = end.allocateRegion(bytes + GUARD_BYTES);
        Patterns.fill(r.segment(), seed);
        return r;
    }

    /** Posts a work request that must be accepted (the queue is known not to be full). */
    protected static void post(QueuePair qp, SendWr wr) {
        if (!qp.postSend(wr)) throw new AssertionError("qp " + qp.qpn() + " refused " + wr + " as back-pressure");
    }

    protected static void post(QueuePair qp, RecvWr wr) {
        if (!qp.postRecv(wr)) throw new AssertionError("qp " + qp.qpn() + " refused " + wr + " as back-pressure");
    }

    /**
     * Waits up to 5 s for {@code qp} to reach {@code state}: an error completion and the state change
     * it implies may become visible in either order to another thread.
     */
    protected static void awaitState(QueuePair qp, QpState state) {
        Deadline deadline = Deadline.after(STATE_WAIT_NS);
        BackoffIdleStrategy idle = WaitPolicy.stateWait();
        while (qp.state() != state) {
            if (deadline.expired()) {
                throw new AssertionError("qp " + qp.qpn() + " is " + qp.state() + ", expected " + state);
            }
            idle.idle();
        }
    }
}
