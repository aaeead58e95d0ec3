package dev.jccl.verbs.tcp;

import dev.jccl.util.BackoffIdleStrategy;

/**
 * How long a receiver thread sleeps, off its socket, while a consumer watches it. A consumer counts as
 * watching for {@link #GRACE_NS} after its last poll; the thread first looks again a grace later (never
 * before the grace it found left has passed), and each time in a row that it finds the consumer still
 * there it sleeps twice as long, up to {@link #MAX_SLEEP_NS}: a {@link BackoffIdleStrategy} that only
 * parks, reset once the consumer has gone.
 *
 * <p>Why: each look wakes the thread, which takes a core from a spinning rank (a grace of 1 ms
 * against 5 ms: 21.1 against 16.8 µs per 8 B allreduce, 2 ranks over loopback, five interleaved
 * rounds). Looking every grace, the four receiver threads of 2 ranks in an 8 KiB allreduce woke
 * 190-255 times a second each (1 s scheduler trace) and preempted a calling thread about 600 times
 * a second; looking as here, 50-74 and about 200. The price is paid only by a consumer that stops
 * polling: what arrives next (and the ACK it owes) waits up to 20 ms, not 5, for the thread. A
 * communicator's progress thread polls the links within its cede (5 ms; about 10 ms after inline calls)
 * and every 1 ms once deep asleep, so its sockets never wait for this bound.
 */
final class ConsumerLooks {
    /** How long after a consumer's last poll it still counts as watching its sockets. */
    static final long GRACE_NS = 5_000_000;
    /** The longest sleep between looks while a consumer keeps watching. */
    static final long MAX_SLEEP_NS = 20_000_000;

    private ConsumerLooks() {}

    /** A receiver thread's sleeps between looks, through {@code parker}. */
    static BackoffIdleStrategy sleeps(BackoffIdleStrategy.Parker parker) {
        return new BackoffIdleStrategy(0, 0, 0, GRACE_NS, MAX_SLEEP_NS, parker);
    }

    /** Tests: sleeps of {@code ns} every time. */
    static BackoffIdleStrategy fixed(long ns, BackoffIdleStrategy.Parker parker) {
        return new BackoffIdleStrategy(0, 0, 0, ns, ns, parker);
    }
}
