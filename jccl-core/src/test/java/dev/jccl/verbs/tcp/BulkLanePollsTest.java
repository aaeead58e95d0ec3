package dev.jccl.verbs.tcp;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The schedule of a consumer's looks at a bulk lane: every poll while bytes come, one in four once idle, every poll again from a byte. */
@Tag("unit")
class BulkLanePollsTest {
    @Test
    void looksEveryPollUntilTheLaneHasBeenIdleThenOneInFour() {
        BulkLanePolls polls = new BulkLanePolls();
        for (int i = 0; i < BulkLanePolls.IDLE_POLLS; i++) {
            assertFalse(polls.skip(), "poll " + i + " of a lane not yet idle");
            polls.looked(false);
        }
        int looks = 0;
        for (int i = 0; i < 40; i++) {
            if (!polls.skip()) {
                looks++;
                polls.looked(false);
            }
        }
        assertEquals(40 / BulkLanePolls.EVERY, looks);
    }

    @Test
    void aByteBringsBackEveryPoll() {
        BulkLanePolls polls = new BulkLanePolls();
        for (int i = 0; i < BulkLanePolls.IDLE_POLLS; i++) polls.looked(false);
        int skipped = 0;
        while (polls.skip()) skipped++;
        assertEquals(BulkLanePolls.EVERY - 1, skipped, "an idle lane is never left for more than three polls");
        polls.looked(true);
        for (int i = 0; i < BulkLanePolls.IDLE_POLLS; i++) {
            assertFalse(polls.skip());
            polls.looked(i == 3);
        }
        assertFalse(polls.skip(), "the byte at poll 3 restarted the count");
    }
}
