package dev.jccl.util;

import java.util.concurrent.locks.LockSupport;

/**
 * Spin, then yield, then park with an exponentially growing period.
 *
 * <p>Why three phases: with two ranks on two cores a handful of spins catches the peer's reply within
 * a microsecond; with eight ranks on two cores a spinning waiter steals the core from the very peer it
 * is waiting for, so after a short while it must yield and finally sleep. The park period doubles
 * from {@code minParkNs} to {@code maxParkNs} so a long wait costs little CPU yet wakes quickly.
 *
 * <p>The spin phase lasts {@code maxSpins} rounds, or {@code spinNs} nanoseconds from the first idle
 * round after a reset, whichever is longer. A waiter that can be woken by something better than a
 * timer (a file descriptor, a futex) passes its own {@link Parker}; it must return early when woken.
 * This class is only the mechanism: which thread gets which numbers, and why, is {@link WaitPolicy}'s.
 */
public final class BackoffIdleStrategy implements IdleStrategy {
    /** Sleeps at most {@code ns}; may return earlier (spuriously, or because it was woken). */
    @FunctionalInterface
    public interface Parker {
        void park(long ns);
    }

    private static final Parker PARK_NANOS = LockSupport::parkNanos;

    private final long maxSpins;
    private final long spinNs;
    private final long maxYields;
    private final long minParkNs;
    private final long maxParkNs;
    private final Parker parker;

    private long spins;
    private long spinStartNs; // when the current spin phase began, once spinClockRunning
    private boolean spinClockRunning;
    private long yields;
    private long parkNs;

    public BackoffIdleStrategy(long maxSpins, long maxYields, long minParkNs, long maxParkNs) {
        this(maxSpins, 0, maxYields, minParkNs, maxParkNs, PARK_NANOS);
    }

    public BackoffIdleStrategy(long maxSpins, long spinNs, long maxYields, long minParkNs, long maxParkNs,
                               Parker parker) {
        if (maxSpins < 0 || spinNs < 0 || maxYields < 0 || minParkNs < 1 || maxParkNs < minParkNs || parker == null) {
            throw new IllegalArgumentException("bad backoff: spins=" + maxSpins + " spinNs=" + spinNs + " yields="
                    + maxYields + " minParkNs=" + minParkNs + " maxParkNs=" + maxParkNs);
        }
        this.maxSpins = maxSpins;
        this.spinNs = spinNs;
        this.maxYields = maxYields;
        this.minParkNs = minParkNs;
        this.maxParkNs = maxParkNs;
        this.parker = parker;
        reset();
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
        if (!spinClockRunning && spinNs > 0) {
            spinStartNs = System.nanoTime();
            spinClockRunning = true;
        }
        if (spins < maxSpins) {
            spins++;
            Thread.onSpinWait();
        } else if (spinning()) {
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            parker.park(parkNs);
            parkNs = Math.min(parkNs << 1, maxParkNs);
        }
    }

    private boolean spinning() {
        return spinNs > 0 && System.nanoTime() - spinStartNs < spinNs;
    }

    @Override
    public void reset() {
        spins = 0;
        spinClockRunning = false;
        yields = 0;
        parkNs = minParkNs;
    }
}
