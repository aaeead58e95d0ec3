package dev.jccl.comm;

import dev.jccl.util.Agent;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * When a queued call ends the progress thread's cede ({@link ProgressHandOff#wakesCedingThread}): never in
 * the issue-then-wait loop, whose every wake-up would take a core from a spinning rank; for the second call
 * issued without a wait between, and for a caller that issues, computes, then waits.
 */
@Tag("unit")
class ProgressHandOffTest {
    /** A grace no real gap between issue and wait exceeds, and one that every gap exceeds. */
    private static final long LONG_GRACE = Long.MAX_VALUE / 4;
    private static final long NO_GRACE = -1;

    private static ProgressHandOff handOff(long graceNs) {
        Agent idle = new Agent() {
            @Override public String roleName() { return "test"; }
            @Override public int doWork() { return 0; }
        };
        return new ProgressHandOff(idle, new OpQueue(null, null), graceNs);
    }

    /** One call of the caller's loop: issue, then wait at once (as far as the grace tells) until done. */
    private static void issueAndWait(ProgressHandOff h) {
        h.callerIssuing(System.nanoTime());
        h.callerWaiting(1);
        h.callerWaiting(-1);
    }

    @Test
    void theIssueThenWaitLoopNeverWakesIt() {
        ProgressHandOff h = handOff(LONG_GRACE);
        for (int i = 0; i < 5; i++) {
            h.callerIssuing(System.nanoTime());
            assertFalse(h.wakesCedingThread(), "call " + i + ": its caller waits for it next");
            h.callerWaiting(1);
            h.callerWaiting(-1);
        }
    }

    @Test
    void aSecondCallIssuedWithoutWaitingWakesIt() {
        ProgressHandOff h = handOff(LONG_GRACE);
        issueAndWait(h);
        h.callerIssuing(System.nanoTime());
        assertFalse(h.wakesCedingThread());
        h.callerIssuing(System.nanoTime());
        assertTrue(h.wakesCedingThread(), "two calls in flight, nobody waits: DDP's buckets");
        h.callerWaiting(1);
        assertFalse(h.wakesCedingThread(), "a caller waits, and drives progress itself");
        h.callerWaiting(-1);
        h.callerIssuing(System.nanoTime());
        assertFalse(h.wakesCedingThread(), "the count starts over with each wait");
    }

    @Test
    void aCallerThatWaitedLongAfterIssuingWakesItWithItsNextCall() {
        ProgressHandOff h = handOff(NO_GRACE);
        issueAndWait(h); // its wait came later than the (negative) grace after the issue: a prefetch
        h.callerIssuing(System.nanoTime());
        assertTrue(h.wakesCedingThread(), "issued, to be computed over and waited for later");
    }

    @Test
    void callsRunInlineStartTheCountOver() {
        ProgressHandOff h = handOff(LONG_GRACE);
        h.callerIssuing(System.nanoTime());
        h.callerEnteredInline(System.nanoTime());
        h.callerLeftInline(System.nanoTime());
        h.callerIssuing(System.nanoTime());
        assertFalse(h.wakesCedingThread());
    }
}
