package dev.jccl.comm;

import dev.jccl.util.BackoffIdleStrategy;

/**
 * How long a thread waiting for a peer spins before it yields and then parks. A peer in another
 * process cannot wake a parked thread (shared-memory progress is noticed only by looking), and a
 * park lasts at least the kernel's timer slack (~50 µs), so once both ends of an exchange park,
 * every message costs a park: a waiter must keep looking for longer than the peer's usual answer.
 * That is right while this host has a core for every rank; with more ranks than cores, spinning
 * steals the core from the very peer being waited for, so the waiter soon yields instead.
 */
final class IdlePolicy {
    private final long spins;
    private final long yields;

    private IdlePolicy(long spins, long yields) {
        this.spins = spins;
        this.yields = yields;
    }

    /** For {@code ranksOnHost} ranks sharing this host's cores. */
    static IdlePolicy forRanks(int ranksOnHost) {
        int cores = Runtime.getRuntime().availableProcessors();
        return ranksOnHost <= cores ? new IdlePolicy(20_000, 200) : new IdlePolicy(100, 2_000);
    }

    /** A fresh strategy for one waiting thread (strategies are not thread-safe). */
    BackoffIdleStrategy newStrategy() {
        return new BackoffIdleStrategy(spins, yields, 1_000, 100_000);
    }
}
