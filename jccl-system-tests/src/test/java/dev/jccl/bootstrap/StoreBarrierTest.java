package dev.jccl.bootstrap;

import dev.jccl.testkit.RankRunner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(30)
@Tag("unit")
class StoreBarrierTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void noRankLeavesARoundBeforeEveryRankEnteredIt() throws Exception {
        MemoryStore store = new MemoryStore();
        int ranks = 4;
        int rounds = 20;
        AtomicIntegerArray entered = new AtomicIntegerArray(rounds);
        RankRunner.map(ranks, rank -> {
            StoreBarrier barrier = new StoreBarrier(store, rank, ranks, "b", 5 * SECOND);
            for (int g = 0; g < rounds; g++) {
                if ((g + rank) % 3 == 0) Thread.yield(); // vary who arrives last
                entered.incrementAndGet(g);
                barrier.await();
                assertEquals(ranks, entered.get(g), "rank " + rank + " left round " + g + " early");
            }
            return null;
        });
        // Finished rounds are cleaned up: rank 0 removed round 18's counter when it passed round 19.
        assertTrue(store.tryGet("barrier/b/18/count").isEmpty());
        assertTrue(store.tryGet("barrier/b/19/arrived/3").isEmpty());
        assertTrue(store.tryGet("barrier/b/19/count").isPresent());
    }

    @Test
    void timeoutNamesTheRankThatNeverArrived() {
        MemoryStore store = new MemoryStore();
        AssertionError e = assertThrows(AssertionError.class, () -> RankRunner.map(2, rank ->
        {
            new StoreBarrier(store, rank, 3, "b", TimeUnit.MILLISECONDS.toNanos(200)).await();
            return null;
        }));
        StoreTimeoutException t = assertInstanceOf(StoreTimeoutException.class, e.getCause());
        assertTrue(t.getMessage().contains("barrier 'b' round 0: rank 2 did not arrive")
                && t.getMessage().contains("2 of 3 arrived"), t.getMessage());
    }

    @Test
    void tooManyArrivalsMeanTwoGroupsShareAName() {
        MemoryStore store = new MemoryStore();
        store.add("barrier/b/0/count", 2);
        StoreException e = assertThrows(StoreException.class, () -> new StoreBarrier(store, 0, 2, "b", SECOND).await());
        assertTrue(e.getMessage().contains("3 arrivals for 2 ranks"), e.getMessage());
    }
}
