package dev.jccl.comm;

import dev.jccl.util.BackoffIdleStrategy;
import dev.jccl.util.SpinBudget;
import dev.jccl.util.TimerSlack;

import java.util.concurrent.locks.LockSupport;

/**
 * How long a thread waiting for a peer spins before it yields and then parks. A peer in another
 * process cannot wake a parked thread (shared-memory progress is noticed only by looking), and a
 * park lasts at least the kernel's timer slack (~50 µs), so once both ends of an exchange park,
 * every message costs a park: a waiter must keep looking for longer than the peer's usual answer.
 * That is right while this host has a core for every rank and every runnable thread (JCCL_SPIN,
 * see {@link SpinBudget}); with more ranks than cores, spinning steals the core from the very peer
 * being waited for, so the waiter soon yields instead.
 */
final class IdlePolicy {
    private final long spins;
    private final long yields;
    private final long spinKnobNs;
    private final int ranksOnHost;

    private IdlePolicy(long spins, long yields, long spinKnobNs, int ranksOnHost) {
        this.spins = spins;
        this.yields = yields;
        this.spinKnobNs = spinKnobNs;
        this.ranksOnHost = ranksOnHost;
    }

    /** For {@code ranksOnHost} ranks sharing this host's cores, and JCCL_SPIN ({@link SpinBudget#AUTO} or ns). */
    static IdlePolicy forRanks(int ranksOnHost, long spinKnobNs) {
        int cores = Runtime.getRuntime().availableProcessors();
        // A spin round polls every link (~0.5-1 µs), so even 100 rounds hold the core for ~100 µs
        // that a peer needs when ranks outnumber cores: 4 ranks on 2 cores measured 85-100 µs per
        // 8 B allreduce with 100 spins, 19-21 µs with none (yielding at once), 600 µs with 1,000.
        return ranksOnHost <= cores ? new IdlePolicy(200, 200, spinKnobNs, ranksOnHost)
                : new IdlePolicy(0, 2_000, spinKnobNs, ranksOnHost);
    }

    /** A fresh strategy for one waiting thread (strategies are not thread-safe); the spin budget is decided now. */
    BackoffIdleStrategy newStrategy() {
        return new BackoffIdleStrategy(spins, spinBudgetNs(), yields, 1_000, 100_000, TimerSlack.tight(LockSupport::parkNanos));
    }

    /**
     * The strategy of the progress thread while operations are in flight that nobody waits for.
     * Whoever issued them asynchronously is computing meanwhile (a backward pass), on the cores
     * this thread would spin on: so it never spins or yields, and naps 20 µs doubling to 200 µs
     * with the default timer slack, which batches wake-ups. A chunk waits at most one nap longer;
     * the operation is hidden behind the computation anyway, or a caller's await takes over.
     */
    BackoffIdleStrategy newBackgroundStrategy() {
        return new BackoffIdleStrategy(0, 0, 0, 20_000, 200_000, LockSupport::parkNanos);
    }

    /** JCCL_SPIN as set; for AUTO, no long spin once this host's ranks outnumber its cores, else the host's load decides. */
    private long spinBudgetNs() {
        if (spinKnobNs == SpinBudget.AUTO && ranksOnHost > Runtime.getRuntime().availableProcessors()) return 0;
        return SpinBudget.spinNs(spinKnobNs);
    }
}
