package dev.jccl.util;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
@Tag("unit")
class TimerSlackTest {
    private static long onFreshThread(Runnable before) throws Exception {
        CompletableFuture<Long> slack = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                before.run();
                slack.complete(TimerSlack.currentThreadSlackNs());
            } catch (Throwable e) {
                slack.completeExceptionally(e);
            }
        });
        t.start();
        return slack.get(20, TimeUnit.SECONDS);
    }

    @Test
    void aParkingWaiterTightensItsOwnSlack() throws Exception {
        assumeTrue(TimerSlack.currentThreadSlackNs() >= 0, "prctl(PR_GET_TIMERSLACK) is not available here");
        long slack = onFreshThread(() -> {
            assertEquals(0, TimerSlack.setCurrentThreadSlackNs(50_000));
            BackoffIdleStrategy idle = new WaitPolicy.Backoff(0, 0, 0, 1_000, 1_000, true).strategy(ns -> { });
            idle.idle(); // no spins, no yields: the first idle round parks
        });
        assertEquals(TimerSlack.WAITER_SLACK_NS, slack);
    }

    @Test
    void spinningAloneLeavesTheSlackAlone() throws Exception {
        assumeTrue(TimerSlack.currentThreadSlackNs() >= 0, "prctl(PR_GET_TIMERSLACK) is not available here");
        long slack = onFreshThread(() -> {
            assertEquals(0, TimerSlack.setCurrentThreadSlackNs(50_000));
            BackoffIdleStrategy idle = new WaitPolicy.Backoff(10, 0, 0, 1_000, 1_000, true).strategy(ns -> { });
            for (int i = 0; i < 10; i++) idle.idle();
        });
        assertEquals(50_000, slack);
    }

    @Test
    void aBackgroundPollerKeepsTheDefaultSlack() throws Exception {
        assumeTrue(TimerSlack.currentThreadSlackNs() >= 0, "prctl(PR_GET_TIMERSLACK) is not available here");
        long slack = onFreshThread(() -> {
            assertEquals(0, TimerSlack.setCurrentThreadSlackNs(50_000));
            BackoffIdleStrategy idle = new WaitPolicy.Backoff(0, 0, 0, 1_000, 1_000, false).strategy(ns -> { });
            for (int i = 0; i < 3; i++) idle.idle();
        });
        assertEquals(50_000, slack);
    }
}
