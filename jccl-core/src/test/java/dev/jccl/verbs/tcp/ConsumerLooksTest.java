package dev.jccl.verbs.tcp;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

@Tag("unit")
class ConsumerLooksTest {
    private static final long MS = 1_000_000;

    @Test
    void sleepsGrowFromTheGraceToTheCapWhileTheConsumerStaysAndStartOverOnceItLeft() {
        ConsumerLooks looks = new ConsumerLooks();
        assertEquals(5 * MS, ConsumerLooks.GRACE_NS);
        assertEquals(20 * MS, ConsumerLooks.MAX_SLEEP_NS);
        assertEquals(5 * MS, looks.sleepNs(2 * MS), "at least the grace: the consumer polled 3 ms ago");
        assertEquals(10 * MS, looks.sleepNs(5 * MS));
        assertEquals(20 * MS, looks.sleepNs(5 * MS));
        assertEquals(20 * MS, looks.sleepNs(5 * MS), "capped");
        looks.reset();
        assertEquals(5 * MS, looks.sleepNs(1 * MS));
    }

    @Test
    void neverShorterThanTheConsumerIsStillOwed() {
        ConsumerLooks looks = new ConsumerLooks();
        assertEquals(7 * MS, looks.sleepNs(7 * MS));
    }

    @Test
    void aFixedLookIsTheSameEveryTime() {
        ConsumerLooks looks = new ConsumerLooks();
        looks.sleepNs(5 * MS);
        looks.sleepNs(5 * MS); // grown to 20 ms by now
        looks.fixed(60_000 * MS);
        assertEquals(60_000 * MS, looks.sleepNs(5 * MS));
        assertEquals(60_000 * MS, looks.sleepNs(5 * MS));
        looks.reset();
        assertEquals(60_000 * MS, looks.sleepNs(5 * MS));
        looks.fixed(1 * MS);
        assertEquals(5 * MS, looks.sleepNs(5 * MS), "never shorter than the consumer is owed");
        assertEquals(1 * MS, looks.sleepNs(0));
    }
}
