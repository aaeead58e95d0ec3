package dev.jccl.trace;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A flood of refusals writes a few lines per window and says how many it left out; time is a fake clock. */
@Tag("unit")
class RateLimitedWarningTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private final List<String> lines = new ArrayList<>();
    private long now = 1_000 * SECOND;
    private final RateLimitedWarning warning = new RateLimitedWarning("refusals", 3, 10 * SECOND, () -> now, lines::add);

    @Test
    void theBurstIsWrittenAndTheRestOnlyCounted() {
        for (int i = 0; i < 40; i++) warning.warn("refused %d", i);
        assertEquals(List.of("refused 0", "refused 1", "refused 2"), lines);
        assertEquals(37, warning.suppressedTotal());
        assertEquals(40, warning.total());
    }

    @Test
    void theFirstLineOfTheNextWindowSaysHowManyWereSuppressed() {
        for (int i = 0; i < 40; i++) {
            warning.warn("refused %d", i);
            now += SECOND / 10; // 40 refusals over 4 s
        }
        now += 6 * SECOND;
        warning.warn("refused late");
        assertEquals(4, lines.size(), lines.toString());
        assertEquals("refused late (37 similar refusals suppressed in the last 10 s)", lines.get(3));
        warning.warn("refused again");
        assertEquals("refused again", lines.get(4), "the count is reported once");
    }

    @Test
    void flushReportsAPendingCountOnItsOwnAndOnlyOnce() {
        for (int i = 0; i < 5; i++) warning.warn("refused");
        now += 2 * SECOND;
        warning.flush();
        warning.flush();
        assertEquals(4, lines.size(), lines.toString());
        assertEquals("2 similar refusals suppressed in the last 2 s", lines.get(3));
    }

    @Test
    void aQuietSourceIsNeverSuppressed() {
        for (int i = 0; i < 10; i++) {
            warning.warn("refused %d", i);
            now += 4 * SECOND; // one every 4 s: at most 3 per 10 s window
        }
        assertEquals(10, lines.size());
        assertEquals(0, warning.suppressedTotal());
        assertTrue(lines.stream().noneMatch(l -> l.contains("suppressed")), lines.toString());
    }

    @Test
    void nonsenseLimitsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RateLimitedWarning("x", 0, SECOND, () -> 0, s -> { }));
        assertThrows(IllegalArgumentException.class, () -> new RateLimitedWarning("x", 1, 0, () -> 0, s -> { }));
    }
}
