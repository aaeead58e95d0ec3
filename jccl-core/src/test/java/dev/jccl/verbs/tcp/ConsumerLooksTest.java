package dev.jccl.verbs.tcp;

import dev.jccl.util.BackoffIdleStrategy;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("unit")
class ConsumerLooksTest {
    private static final long MS = 1_000_000;

    @Test
    void sleepsGrowFromTheGraceToTheCapWhileTheConsumerStaysAndStartOverOnceItLeft() {
        List<Long> slept = new ArrayList<>();
        BackoffIdleStrategy looks = ConsumerLooks.sleeps(slept::add);
        assertEquals(5 * MS, ConsumerLooks.GRACE_NS);
        assertEquals(20 * MS, ConsumerLooks.MAX_SLEEP_NS);
        for (int i = 0; i < 4; i++) looks.idle();
        looks.reset();
        looks.idle();
        assertEquals(List.of(5 * MS, 10 * MS, 20 * MS, 20 * MS, 5 * MS), slept, "capped, then from the grace again");
    }

    @Test
    void neverShorterThanTheConsumerIsStillOwed() {
        List<Long> slept = new ArrayList<>();
        ConsumerLooks.sleeps(slept::add).idle();
        // A consumer counts as watching for at most the grace after its last poll (or sleeping on the socket).
        assertTrue(slept.getFirst() >= ConsumerLooks.GRACE_NS, "first sleep " + slept);
    }

    @Test
    void aFixedLookIsTheSameEveryTime() {
        List<Long> slept = new ArrayList<>();
        BackoffIdleStrategy looks = ConsumerLooks.fixed(60_000 * MS, slept::add);
        looks.idle();
        looks.idle();
        looks.reset();
        looks.idle();
        assertEquals(List.of(60_000 * MS, 60_000 * MS, 60_000 * MS), slept);
    }
}
