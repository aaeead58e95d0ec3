package dev.jccl.util;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("unit")
class BackoffIdleStrategyTest {
    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void backsOffToParkingSoIdleWaitersDoNotBurnACore() {
        // 1 spin, 1 yield, then parks of 1..2 ms: 50 idles must take at least ~45 parks of >= 1 ms.
        BackoffIdleStrategy s = new BackoffIdleStrategy(1, 1, 1_000_000, 2_000_000);
        long t0 = System.nanoTime();
        for (int i = 0; i < 50; i++) s.idle();
        long elapsedMs = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(elapsedMs >= 40, "expected the strategy to park, took only " + elapsedMs + " ms");
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void workResetsTheBackoff() {
        BackoffIdleStrategy s = new BackoffIdleStrategy(1_000_000, 0, 50_000_000, 50_000_000);
        long t0 = System.nanoTime();
        for (int i = 0; i < 1000; i++) {
            s.idle(0);
            s.idle(1); // progress: back to spinning, never reaching the 50 ms park
        }
        assertTrue((System.nanoTime() - t0) < 5_000_000_000L);
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void aTimedSpinPhaseSpinsForItsBudgetThenParksThroughTheParker() {
        AtomicInteger parks = new AtomicInteger();
        BackoffIdleStrategy s = new BackoffIdleStrategy(0, 20_000_000, 0, 1_000, 1_000, ns -> parks.incrementAndGet());
        for (int round = 0; round < 2; round++) { // reset starts a new spin phase
            s.reset();
            long t0 = System.nanoTime();
            while (parks.get() == round) s.idle();
            long spunNs = System.nanoTime() - t0;
            assertTrue(spunNs >= 19_000_000, "parked after only " + spunNs + " ns of a 20 ms spin");
        }
    }

    @Test
    void rejectsInconsistentParameters() {
        assertThrows(IllegalArgumentException.class, () -> new BackoffIdleStrategy(-1, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new BackoffIdleStrategy(1, 1, 10, 5));
        assertThrows(IllegalArgumentException.class, () -> new BackoffIdleStrategy(1, -1, 1, 1, 1, ns -> { }));
    }
}
