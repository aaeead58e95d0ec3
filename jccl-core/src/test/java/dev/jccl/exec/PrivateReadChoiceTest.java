package dev.jccl.exec;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The schedule of trials and what a trial concludes, with the busy times given rather than measured. */
@Tag("unit")
class PrivateReadChoiceTest {
    private static final int TRIAL = 2 * PrivateReadChoice.SAMPLES;
    private static final int CYCLE = TRIAL + PrivateReadChoice.EXPLOIT;

    /** Runs one call whose busy time is {@code readNs} when it reads and {@code copyNs} when it copies; returns whether it read. */
    private static boolean call(PrivateReadChoice c, long readNs, long copyNs) {
        boolean read = c.begin();
        c.end(read ? readNs : copyNs);
        return read;
    }

    @Test
    void readsFirstThenTriesBothWaysInTurnAndKeepsTheFaster() {
        PrivateReadChoice c = new PrivateReadChoice();
        for (int i = 0; i < PrivateReadChoice.WARM; i++) assertTrue(call(c, 100, 50), "warm-up calls read");
        for (int i = 0; i < TRIAL; i++) assertEquals(i % 2 == 0, call(c, 100, 50), "trial call " + i + " alternates");
        assertFalse(c.chosen(), "copying was faster");
        for (int i = 0; i < PrivateReadChoice.EXPLOIT; i++) assertFalse(call(c, 100, 50));
        // The next trial follows a change: now reading is faster.
        for (int i = 0; i < TRIAL; i++) assertEquals(i % 2 == 0, call(c, 40, 50));
        assertTrue(c.chosen());
        assertTrue(call(c, 40, 50));
    }

    @Test
    void theMedianDecidesSoOneSlowCallDoesNot() {
        PrivateReadChoice c = new PrivateReadChoice();
        for (int i = 0; i < PrivateReadChoice.WARM; i++) call(c, 10, 10);
        for (int i = 0; i < TRIAL; i++) {
            boolean read = c.begin();
            c.end(read ? (i == 0 ? 1_000_000 : 40) : 50); // one read call descheduled
        }
        assertTrue(c.chosen());
    }

    @Test
    void callsThatNeverFinishLeaveNoSample() {
        PrivateReadChoice c = new PrivateReadChoice();
        for (int i = 0; i < PrivateReadChoice.WARM; i++) call(c, 10, 10);
        for (int i = 0; i < TRIAL - 1; i++) call(c, 100, 50);
        c.begin(); // the trial's last call fails: no verdict from it
        assertTrue(c.chosen(), "no verdict yet");
        for (int i = 0; i < CYCLE - TRIAL; i++) c.begin(); // the rest of the cycle, unfinished too
        for (int i = 0; i < TRIAL; i++) call(c, 100, 50);
        assertFalse(c.chosen(), "the next trial decides");
    }
}
