package dev.jccl.util;

import java.util.concurrent.locks.LockSupport;

/**
 * Spin, then yield, then park with an exponentially growing period.
 *
 * <p>Why three phases: with two ranks on two cores a handful of spins catches the peer's reply within
 * a microsecond; with eight ranks on two cores a spinning waiter steals the core from the very peer it
 * is waiting for, so after a short while it must yield and finally sleep. The park period doubles
 * from {@code minParkNs} to {@code maxParkNs} so a long wait costs little CPU yet wakes quickly.
 */
public final class BackoffIdleStrategy implements IdleStrategy {
    private final long maxSpins;
    private final long maxYields;
    private final long minParkNs;
    private final long maxParkNs;

    private long spins;
    private long yields;
    private long parkNs;

    public BackoffIdleStrategy(long maxSpins, long maxYields, long minParkNs, long maxParkNs) {
        if (maxSpins < 0 || maxYields < 0 || minParkNs < 1 || maxParkNs < minParkNs) {
            throw new IllegalArgumentException("bad backoff: spins=" + maxSpins + " yields=" + maxYields
                    + " minParkNs=" + minParkNs + " maxParkNs=" + maxParkNs);
        }
        this.maxSpins = maxSpins;
        this.maxYields = maxYields;
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
        reset();
    }

    /**
     * Defaults suited to more ranks than cores: a few µs of spinning, some yields, then parks of
     * 1 µs doubling to 100 µs. The cap is low because a peer in another process cannot unpark us:
     * shared-memory waiters learn of progress only by looking, so the longest park is the worst
     * added latency. Linux rounds short parks up to its timer slack (~50 µs), so waking 10,000
     * times a second while idle costs little CPU.
     */
    public static BackoffIdleStrategy defaults() {
        return new BackoffIdleStrategy(200, 50, 1_000, 100_000);
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        if (spins < maxSpins) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            LockSupport.parkNanos(parkNs);
            parkNs = Math.min(parkNs << 1, maxParkNs);
        }
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNs = minParkNs;
    }
}
