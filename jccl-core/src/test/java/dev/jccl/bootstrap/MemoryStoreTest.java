package dev.jccl.bootstrap;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(10)
@Tag("unit")
class MemoryStoreTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);
    private final MemoryStore store = new MemoryStore();

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void setGetTryGetDelete() {
        assertTrue(store.tryGet("k").isEmpty());
        byte[] v = b("hello");
        store.set("k", v);
        v[0] = 'X'; // the store kept a copy
        assertArrayEquals(b("hello"), store.get("k", SECOND));
        store.get("k", SECOND)[0] = 'Y'; // and hands out copies
        assertArrayEquals(b("hello"), store.tryGet("k").orElseThrow());
        assertTrue(store.delete("k"));
        assertFalse(store.delete("k"));
        assertTrue(store.tryGet("k").isEmpty());
    }

    @Test
    void addCountsAsDecimalTextAndRefusesNonCounters() {
        assertEquals(5, store.add("c", 5));
        assertEquals(2, store.add("c", -3));
        assertArrayEquals(b("2"), store.tryGet("c").orElseThrow());
        store.set("text", b("abc"));
        StoreException e = assertThrows(StoreException.class, () -> store.add("text", 1));
        assertTrue(e.getMessage().contains("'text'"), e.getMessage());
        store.set("big", b(Long.toString(Long.MAX_VALUE)));
        assertThrows(StoreException.class, () -> store.add("big", 1));
    }

    @Test
    void compareAndSetFollowsExpectedValue() {
        assertNull(store.compareAndSet("k", b("x"), b("y")), "absent key, expected present: no change");
        assertTrue(store.tryGet("k").isEmpty());
        assertArrayEquals(b("a"), store.compareAndSet("k", null, b("a")));
        assertArrayEquals(b("a"), store.compareAndSet("k", null, b("b")), "present key, expected absent: current value");
        assertArrayEquals(b("a"), store.compareAndSet("k", b("z"), b("b")));
        assertArrayEquals(b("b"), store.compareAndSet("k", b("a"), b("b")));
        assertArrayEquals(b("b"), store.tryGet("k").orElseThrow());
    }

    @Test
    void getBlocksUntilAnotherThreadSets() throws Exception {
        CompletableFuture<byte[]> got = CompletableFuture.supplyAsync(() -> store.get("late", 5 * SECOND));
        Thread.sleep(50);
        assertFalse(got.isDone());
        store.set("late", b("v"));
        assertArrayEquals(b("v"), got.get(2, TimeUnit.SECONDS));
    }

    @Test
    void waitWakesOnlyWhenEveryKeyExists() throws Exception {
        CompletableFuture<Void> all = CompletableFuture.runAsync(() -> store.wait(List.of("a", "b", "c"), 5 * SECOND));
        store.set("a", b("1"));
        store.add("b", 1);
        Thread.sleep(50);
        assertFalse(all.isDone());
        store.set("c", b("3"));
        all.get(2, TimeUnit.SECONDS);
    }

    @Test
    void aKeyDeletedBeforeTheLastArrivesIsWaitedForAgain() throws Exception {
        CompletableFuture<Void> all = CompletableFuture.runAsync(() -> store.wait(List.of("a", "b"), 5 * SECOND));
        Thread.sleep(20);
        store.set("a", b("1"));
        store.delete("a");
        store.set("b", b("2"));
        Thread.sleep(50);
        assertFalse(all.isDone(), "'a' is gone again, so the wait must go on");
        store.set("a", b("1"));
        all.get(2, TimeUnit.SECONDS);
    }

    @Test
    void timeoutNamesTheMissingKeysAndTheWait() {
        store.set("here", b("x"));
        long start = System.nanoTime();
        StoreTimeoutException e = assertThrows(StoreTimeoutException.class,
                () -> store.wait(List.of("here", "gone1", "gone2"), TimeUnit.MILLISECONDS.toNanos(100)));
        assertEquals(List.of("gone1", "gone2"), e.missingKeys());
        assertTrue(e.waitedNs() >= TimeUnit.MILLISECONDS.toNanos(100));
        assertTrue(System.nanoTime() - start < 2 * SECOND);
        assertTrue(e.getMessage().contains("'gone1', 'gone2'") && e.getMessage().contains(" ms"), e.getMessage());
    }

    @Test
    void oversizedKeysAndValuesAreRefused() {
        String longKey = "k".repeat(StoreLimits.MAX_KEY_BYTES + 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.set(longKey, b("v")));
        assertTrue(e.getMessage().contains("1025 bytes"), e.getMessage());
        byte[] huge = new byte[StoreLimits.MAX_VALUE_BYTES + 1];
        e = assertThrows(IllegalArgumentException.class, () -> store.set("k", huge));
        assertTrue(e.getMessage().contains(String.valueOf(huge.length)), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> store.set("", b("v")));
        assertThrows(IllegalArgumentException.class, () -> store.get("k", -1));
    }

    @Test
    void closedStoreRefusesCalls() {
        store.close();
        assertThrows(StoreException.class, () -> store.set("k", b("v")));
    }

    @Test
    void prefixStoreNamespacesKeysAndLeavesInnerOpen() {
        Store a = new PrefixStore(store, "comm1");
        Store b = new PrefixStore(new PrefixStore(store, "comm2"), "ch0");
        a.set("k", b("A"));
        b.set("k", b("B"));
        assertArrayEquals(b("A"), store.tryGet("comm1/k").orElseThrow());
        assertArrayEquals(b("B"), store.tryGet("comm2/ch0/k").orElseThrow());
        assertEquals(1, a.add("n", 1));
        a.wait(List.of("k", "n"), SECOND);
        StoreTimeoutException e = assertThrows(StoreTimeoutException.class, () -> b.get("n", 10_000_000));
        assertEquals(List.of("comm2/ch0/n"), e.missingKeys());
        a.close();
        assertTrue(a.delete("k"), "closing a prefix view must not close the shared store");
    }
}
