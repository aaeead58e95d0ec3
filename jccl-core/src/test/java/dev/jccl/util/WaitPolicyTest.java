package dev.jccl.util;

import dev.jccl.util.WaitPolicy.Backoff;
import dev.jccl.util.WaitPolicy.CqKind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.Arrays;
import java.util.List;

import static dev.jccl.util.WaitPolicy.AUTO_SPIN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The policy as a table: given JCCL_SPIN and how many ranks share how many cores, what each waiter
 * does. Some {@code auto} budgets follow the host's load at the moment, so those rows accept either
 * of the two answers (a spare core: the budget; none: 0).
 */
@Tag("unit")
class WaitPolicyTest {
    private static final long AUTO = AUTO_SPIN;

    @ParameterizedTest(name = "spin {0}, {1} ranks on {2} cores, threads beside {3}: spins {4}, yields {5}, spinNs in {6}")
    @CsvSource({
            // spin knob, ranks, cores, transport threads beside, rounds, yields, allowed spin budgets
            // a caller yields ~1 ms before it parks, with a core or not: see the table (taking turns at 200)
            "-1,     2, 2, false,  200, 2000, 1000000",   // polling only: every rank has a core, so it spins
            "-1,     1, 8, false,  200, 2000, 1000000",
            "-1,     2, 2, true,   200, 2000, 0 1000000", // tcp's threads need cores: the host's load decides
            "-1,     4, 2, false,    0, 2000, 0",         // oversubscribed: yield at once, auto spins nothing
            "-1,     4, 2, true,     0, 2000, 0",
            "20000,  4, 2, false,    0, 2000, 20000",     // a budget given is honoured even then
            "20000,  2, 2, true,   200, 2000, 20000",
            "0,      2, 2, false,  200, 2000, 0",
    })
    void aCallerSpinsOnlyWhileEveryRankHasACore(long spin, int ranks, int cores, boolean threadsBeside, long rounds,
                                               long yields, String budgets) {
        Backoff b = WaitPolicy.of(spin, ranks, cores).caller(threadsBeside);
        assertEquals(rounds, b.spins());
        assertEquals(yields, b.yields());
        assertTrue(allowed(budgets).contains(b.spinNs()), "spin budget " + b.spinNs());
        assertEquals(1_000, b.minParkNs());
        assertEquals(100_000, b.maxParkNs());
        assertTrue(b.tightSlack(), "a caller is on the latency path");
    }

    @ParameterizedTest(name = "spin {0}, {1}, bulk {2}: spins {3}, yields {4}, spinNs in {5}, tight slack {6}")
    @CsvSource({
            // spin knob, kind, bulk beside, rounds, yields, allowed spin budgets, tight slack
            "-1,    IN_PROCESS,   false, 200, 50, 0 50000, true",
            "-1,    SHARED_RINGS, false, 200, 50, 0,       true",
            "-1,    SOCKETS,      false,   0,  0, 0 50000, false",
            "-1,    SOCKETS,      true,    0,  0, 0,       false",
            "20000, SOCKETS,      true,    0,  0, 20000,   false",
            "20000, SHARED_RINGS, false, 200, 50, 20000,   true",
    })
    void aCompletionWaiterSpinsAsItsQueueIsWoken(long spin, CqKind kind, boolean bulk, long rounds, long yields,
                                                 String budgets, boolean tight) {
        for (int ranks : new int[] {1, 16}) { // a queue's waiting does not depend on the ranks per core
            Backoff b = WaitPolicy.of(spin, ranks, 2).completion(kind, bulk);
            assertEquals(rounds, b.spins());
            assertEquals(yields, b.yields());
            assertTrue(allowed(budgets).contains(b.spinNs()), "spin budget " + b.spinNs());
            assertEquals(tight, b.tightSlack());
            assertEquals(1_000, b.minParkNs());
            assertEquals(100_000, b.maxParkNs());
        }
    }

    @Test
    void theProgressThreadNeverSpinsAndKeepsTheDefaultSlack() {
        WaitPolicy p = WaitPolicy.of(AUTO, 2, 2);
        assertEquals(new Backoff(0, 0, 0, 20_000, 200_000, false), p.background());
        assertEquals(100_000, p.callerGraceNs());
        assertEquals(5_000_000, p.cedeNs(), "each wake-up takes a spinning rank's core");
        assertEquals(5_000_000, WaitPolicy.of(AUTO, 4, 2).cedeNs(), "oversubscribed too");
        assertEquals(5_000_000, p.inlineCedeNs(), "callers running inline: a queued call wakes the thread");
        assertEquals(50_000, p.napNs());
        assertEquals(5_000_000, p.deepAfterNs());
        assertEquals(1_000_000, p.deepSleepNs());
    }

    @Test
    void fixedRolesWaitAsDocumented() {
        assertEquals(new Backoff(200, 0, 50, 1_000, 100_000, false), WaitPolicy.STATE_WAIT);
        assertEquals(new Backoff(0, 0, 0, 1_000_000, 50_000_000, false), WaitPolicy.STORE_LINGER);
        assertEquals(new Backoff(0, 0, 0, 50_000, 500_000, false), WaitPolicy.COMPLETION_WATCHER);
    }

    @Test
    void oversubscriptionIsMoreRanksThanCores() {
        assertFalse(WaitPolicy.of(AUTO, 2, 2).oversubscribed());
        assertTrue(WaitPolicy.of(AUTO, 3, 2).oversubscribed());
    }

    @Test
    void rejectsWhatNoKnobCanSay() {
        assertThrows(IllegalArgumentException.class, () -> WaitPolicy.of(-2, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> WaitPolicy.of(AUTO, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> WaitPolicy.of(AUTO, 1, 0));
    }

    private static List<Long> allowed(String budgets) {
        return Arrays.stream(budgets.trim().split("\\s+")).map(Long::valueOf).toList();
    }

    @ParameterizedTest(name = "spin {0}, {1} ranks on {2} cores: inline spin {3} ns, {4} yields")
    @CsvSource({
            "-1,     2, 2, 1000000,  0",  // every rank has a core: spin past a peer's park and spin, never yield
            "20000,  2, 2,  20000,   0",  // a budget given is honoured
            "-1,     4, 2,      0, 2000", // oversubscribed: poll between yields, the peers need this core
            "20000,  4, 2,      0, 2000",
    })
    void aCallerRunningItsCallInlineSpinsWhileEveryRankHasACoreElseYields(long spin, int ranks, int cores, long spinNs, long yields) {
        WaitPolicy.Inline w = WaitPolicy.of(spin, ranks, cores).inline();
        assertEquals(spinNs, w.spinNs());
        assertEquals(yields, w.yields());
    }
}
