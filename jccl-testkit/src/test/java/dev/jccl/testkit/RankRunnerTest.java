package dev.jccl.testkit;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("unit")
class RankRunnerTest {
    private static final long SECONDS_10 = TimeUnit.SECONDS.toNanos(10);

    @Test
    @Timeout(20)
    void everyRankRunsOnceAndAllRunAtTheSameTime() {
        ConcurrentHashMap<Integer, String> seen = new ConcurrentHashMap<>();
        CyclicBarrier together = new CyclicBarrier(5);
        RankRunner.run(5, SECONDS_10, rank -> {
            together.await(5, TimeUnit.SECONDS); // only passes if all five run concurrently
            assertEquals(null, seen.put(rank, Thread.currentThread().getName()));
        });
        assertEquals(5, seen.size());
        assertEquals("rank-3", seen.get(3));
    }

    @Test
    @Timeout(20)
    void theFirstFailureIsReportedWithItsRankWhileOthersStillWait() {
        IllegalStateException boom = new IllegalStateException("boom");
        CountDownLatch never = new CountDownLatch(1);
        long start = System.nanoTime();
        AssertionError e = assertThrows(AssertionError.class, () -> RankRunner.run(4, SECONDS_10, rank -> {
            if (rank == 2) throw boom;
            never.await(); // ranks waiting for the failed one; interrupted by the runner
        }));
        assertTrue(e.getMessage().startsWith("rank 2 of 4 failed"), e.getMessage());
        assertSame(boom, e.getCause());
        assertTrue(System.nanoTime() - start < SECONDS_10, "the failure was reported only at the deadline");
    }

    @Test
    @Timeout(20)
    void aHungRankIsNamedWithWhereItIsStuck() {
        AssertionError e = assertThrows(AssertionError.class, () -> RankRunner.run(3, TimeUnit.MILLISECONDS.toNanos(300), rank -> {
            if (rank == 1) sleepUninterruptibly();
        }));
        assertTrue(e.getMessage().startsWith("ranks [1] of 3 did not finish within 300 ms"), e.getMessage());
        assertTrue(e.getMessage().contains("sleepUninterruptibly"), e.getMessage());
    }

    @Test
    void refusesZeroRanks() {
        assertThrows(IllegalArgumentException.class, () -> RankRunner.run(0, SECONDS_10, rank -> {}));
    }

    /** Ignores interrupts for a while, like a rank spinning in a provider's wait loop. */
    private static void sleepUninterruptibly() {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
        while (System.nanoTime() < until) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException ignored) {
                // keep hanging: the guard must not rely on the rank cooperating
            }
        }
    }
}
