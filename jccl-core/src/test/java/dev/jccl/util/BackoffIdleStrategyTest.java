package dev.jccl.util;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("unit")
class BackoffIdleStrategyTest {
    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void spinsThenYieldsThenParksDoublingUpToTheCap() {
        List<Long> parks = new ArrayList<>();
        BackoffIdleStrategy s = new BackoffIdleStrategy(2, 0, 1, 1_000, 5_000, parks::add);
        for (int i = 0; i < 8; i++) s.idle();
        // 2 spins and 1 yield park nothing; then 1, 2, 4 µs and the 5 µs cap from there on.
        assertEquals(List.of(1_000L, 2_000L, 4_000L, 5_000L, 5_000L), parks);
    }

    @Test
    @Timeout(value = 10, unit = TimeUnit.SECONDS)
    void workResetsTheBackoff() {
        AtomicInteger parks = new AtomicInteger();
        BackoffIdleStrategy s = new BackoffIdleStrategy(1, 0, 1, 1_000, 1_000, ns -> parks.incrementAndGet());
        for (int i = 0; i < 1000; i++) {
            s.idle(0);
            s.idle(0);
            s.idle(1); // progress: back to spinning, never reaching the park
        }
        assertEquals(0, parks.get());
        s.idle(0);
        s.idle(0);
        s.idle(0);
        assertEquals(1, parks.get());
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
