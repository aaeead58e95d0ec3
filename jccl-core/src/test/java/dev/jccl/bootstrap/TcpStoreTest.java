package dev.jccl.bootstrap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.jccl.bootstrap.MemoryStoreTest.b;
import static org.junit.jupiter.api.Assertions.*;

@Timeout(20)
@Tag("unit")
class TcpStoreTest {
    static final String TOKEN = "job-secret";
    static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final TcpStoreServer server = TcpStoreServer.startLoopback(0, TOKEN, 2 * SECOND);

    @AfterEach
    void stop() {
        server.close();
    }

    TcpStoreClient client() {
        return TcpStoreClient.connect("127.0.0.1", server.port(), TOKEN, 5 * SECOND);
    }

    @Test
    void everyOperationRoundTrips() {
        try (TcpStoreClient c = client()) {
            c.set("k", b("v"));
            assertArrayEquals(b("v"), c.get("k", SECOND));
            assertArrayEquals(b("v"), c.tryGet("k").orElseThrow());
            assertTrue(c.tryGet("nope").isEmpty());
            assertEquals(3, c.add("n", 3));
            assertEquals(-1, c.add("n", -4));
            assertArrayEquals(b("-1"), c.get("n", SECOND));
            assertNull(c.compareAndSet("cas", b("x"), b("y")));
            assertArrayEquals(b("a"), c.compareAndSet("cas", null, b("a")));
            assertArrayEquals(b("b"), c.compareAndSet("cas", b("a"), b("b")));
            assertArrayEquals(b("b"), c.compareAndSet("cas", b("a"), b("c")));
            c.wait(List.of("k", "n", "cas"), SECOND);
            assertTrue(c.delete("k"));
            assertFalse(c.delete("k"));
            byte[] empty = new byte[0];
            c.set("empty", empty);
            assertArrayEquals(empty, c.get("empty", SECOND));
        }
    }

    @Test
    void largestValueRoundTripsAndLargerIsRefusedBeforeSending() {
        try (TcpStoreClient c = client()) {
            byte[] big = new byte[StoreLimits.MAX_VALUE_BYTES];
            big[big.length - 1] = 7;
            c.set("big", big);
            assertArrayEquals(big, c.get("big", SECOND));
            assertThrows(IllegalArgumentException.class, () -> c.set("big", new byte[StoreLimits.MAX_VALUE_BYTES + 1]));
            c.set("still", b("alive"));
        }
    }

    @Test
    void blockedGetIsAnsweredWhenAnotherClientSets() throws Exception {
        try (TcpStoreClient waiter = client(); TcpStoreClient setter = client()) {
            CompletableFuture<byte[]> got = CompletableFuture.supplyAsync(() -> waiter.get("late", 10 * SECOND));
            CompletableFuture<Void> all = CompletableFuture.runAsync(() -> waiter.wait(List.of("late", "later"), 10 * SECOND));
            Thread.sleep(100);
            assertFalse(got.isDone());
            setter.set("late", b("v"));
            assertArrayEquals(b("v"), got.get(2, TimeUnit.SECONDS));
            assertFalse(all.isDone());
            setter.add("later", 1);
            all.get(2, TimeUnit.SECONDS);
        }
    }

    @Test
    void answeredTimedOutAndAbandonedWaitsLeaveNothingBehind() throws Exception {
        TcpStoreClient c = client();
        for (int i = 0; i < 50; i++) {
            CompletableFuture<byte[]> got = CompletableFuture.supplyAsync(() -> c.get("k", 10 * SECOND));
            c.set("k", b("v" + i));
            got.get(2, TimeUnit.SECONDS);
            c.delete("k");
        }
        assertThrows(StoreTimeoutException.class, () -> c.get("never", TimeUnit.MILLISECONDS.toNanos(50)));
        assertEquals(0, server.pendingWaitCount());
        CompletableFuture<byte[]> abandoned = CompletableFuture.supplyAsync(() -> c.get("never", 30 * SECOND));
        awaitCondition(() -> server.pendingWaitCount() == 1);
        c.close();
        awaitCondition(() -> server.connectionCount() == 0);
        assertThrows(Exception.class, () -> abandoned.get(2, TimeUnit.SECONDS));
    }

    static void awaitCondition(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + 5 * SECOND;
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "condition not reached within 5 s");
            Thread.sleep(5);
        }
    }

    @Test
    void aBlockedGetDoesNotHoldUpOtherRequestsOnTheSameConnection() throws Exception {
        try (TcpStoreClient c = client()) {
            CompletableFuture<byte[]> got = CompletableFuture.supplyAsync(() -> c.get("k", 10 * SECOND));
            Thread.sleep(50);
            c.set("k", b("same connection"));
            assertArrayEquals(b("same connection"), got.get(2, TimeUnit.SECONDS));
        }
    }

    @Test
    void serverSideTimeoutNamesTheMissingKeys() {
        try (TcpStoreClient c = client()) {
            c.set("a", b("1"));
            StoreTimeoutException e = assertThrows(StoreTimeoutException.class,
                    () -> c.wait(List.of("a", "b", "c"), TimeUnit.MILLISECONDS.toNanos(200)));
            assertEquals(List.of("b", "c"), e.missingKeys());
            assertTrue(e.waitedNs() >= TimeUnit.MILLISECONDS.toNanos(200), "waited " + e.waitedNs());
            assertThrows(StoreTimeoutException.class, () -> c.get("b", 0));
            c.set("b", b("still usable after a timeout"));
        }
    }

    @Test
    void refusedRequestsAreErrorsAndTheConnectionStays() {
        try (TcpStoreClient c = client()) {
            c.set("text", b("abc"));
            StoreException e = assertThrows(StoreException.class, () -> c.add("text", 1));
            assertTrue(e.getMessage().contains("refused ADD") && e.getMessage().contains("'text'"), e.getMessage());
            assertEquals(1, c.add("n", 1));
        }
    }

    @Test
    void clientConnectsToAServerThatStartsLater() throws Exception {
        int port = server.port();
        server.close();
        CompletableFuture<TcpStoreClient> early = CompletableFuture.supplyAsync(
                () -> TcpStoreClient.connect("127.0.0.1", port, TOKEN, 10 * SECOND));
        Thread.sleep(300);
        assertFalse(early.isDone());
        try (TcpStoreServer late = TcpStoreServer.startLoopback(port, TOKEN, SECOND);
             TcpStoreClient c = early.get(5, TimeUnit.SECONDS)) {
            c.set("k", b("v"));
            assertEquals(1, late.connectionCount());
        }
    }

    @Test
    void connectGivesUpAtTheDeadlineNamingTheAddress() {
        int port = server.port();
        server.close();
        long start = System.nanoTime();
        StoreException e = assertThrows(StoreException.class,
                () -> TcpStoreClient.connect("127.0.0.1", port, TOKEN, TimeUnit.MILLISECONDS.toNanos(300)));
        assertTrue(System.nanoTime() - start < 3 * SECOND);
        assertTrue(e.getMessage().contains("127.0.0.1:" + port) && e.getMessage().contains("MASTER_ADDR"), e.getMessage());
    }

    @Test
    void serverGoingAwayFailsPendingAndLaterRequests() throws Exception {
        TcpStoreClient c = client();
        CompletableFuture<byte[]> got = CompletableFuture.supplyAsync(() -> c.get("never", 30 * SECOND));
        Thread.sleep(100);
        server.close();
        Exception e = assertThrows(Exception.class, () -> got.get(5, TimeUnit.SECONDS));
        assertInstanceOf(StoreException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains("127.0.0.1:" + server.port()), e.getCause().getMessage());
        assertThrows(StoreException.class, () -> c.set("k", b("v")));
        c.close();
    }

    @Test
    void closedClientRefusesCalls() {
        TcpStoreClient c = client();
        c.close();
        c.close();
        StoreException e = assertThrows(StoreException.class, () -> c.tryGet("k"));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
    }
}
