package dev.jccl.testkit;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * In-memory stand-in for the bootstrap store between rank threads: each key is written once, and
 * readers wait for it with a bound. Thread-safe.
 */
final class RankBoard {
    private final ConcurrentHashMap<String, CompletableFuture<byte[]>> slots = new ConcurrentHashMap<>();

    void put(String key, byte[] value) {
        if (!slot(key).complete(value.clone())) throw new IllegalStateException("key written twice: " + key);
    }

    /** The value of {@code key}, waiting up to {@code timeoutNs} for some rank to put it. */
    byte[] get(String key, long timeoutNs) throws InterruptedException {
        try {
            return slot(key).get(timeoutNs, TimeUnit.NANOSECONDS).clone();
        } catch (TimeoutException e) {
            throw new AssertionError("nobody published '" + key + "' within " + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms");
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    private CompletableFuture<byte[]> slot(String key) {
        return slots.computeIfAbsent(key, k -> new CompletableFuture<>());
    }
}
