package dev.jccl.provider.ucx;

import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.WaitPolicy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Tells every peer that fetched an rkey to drop it, and waits until each has said so (or has gone,
 * or a bounded time has passed). Only then does the region's deregistration return, so an access a
 * peer posts after it is refused before posting, with REM_ACCESS_ERR. Deregistration is rare (the
 * runtime caches registrations), so paying a round trip here keeps the hot path free of checks.
 */
final class RkeyRevocation {
    private static final long MAX_WAIT_NS = TimeUnit.SECONDS.toNanos(5);

    private final UcxContext context;
    private final UcxProtectionDomain pd;
    private final int rkey;

    RkeyRevocation(UcxContext context, UcxProtectionDomain pd, int rkey) {
        this.context = context;
        this.pd = pd;
        this.rkey = rkey;
    }

    void run() {
        AtomicInteger outstanding = new AtomicInteger();
        context.locked(() -> {
            for (UcxQueuePair qp : pd.queuePairs()) {
                if (qp.revoke(rkey, outstanding::decrementAndGet)) outstanding.incrementAndGet();
            }
        });
        long deadline = System.nanoTime() + Math.min(MAX_WAIT_NS, context.timeoutNs());
        BackoffIdleStrategy idle = WaitPolicy.stateWait();
        while (outstanding.get() > 0 && System.nanoTime() < deadline && !context.isClosed()) {
            idle.idle(context.tryProgress());
        }
    }
}
