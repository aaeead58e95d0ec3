package dev.jccl.cli.perf;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The {@link Exchange} of two perf ranks running as threads of one JVM: each swap publishes into a
 * map and waits, bounded, for the peer's value under the same key. Publishing a key twice is a bug
 * in the caller (a second round would read the first round's answer) and fails loudly.
 */
final class MemoryExchange {
    private final ConcurrentHashMap<String, CompletableFuture<byte[]>> published = new ConcurrentHashMap<>();
    private final long timeoutNs;

    MemoryExchange(long timeoutNs) {
        this.timeoutNs = timeoutNs;
    }

    /** Rank {@code rank}'s end (0 or 1). */
    Exchange side(int rank) {
        return (key, mine) -> {
            if (!slot(key, rank).complete(mine.clone())) {
                throw new IllegalStateException("rank " + rank + " published '" + key + "' twice");
            }
            try {
                return slot(key, 1 - rank).get(timeoutNs, TimeUnit.NANOSECONDS).clone();
            } catch (TimeoutException e) {
                throw new IllegalStateException("rank " + (1 - rank) + " never published '" + key + "' within "
                        + TimeUnit.NANOSECONDS.toMillis(timeoutNs) + " ms", e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted waiting for '" + key + "'", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        };
    }

    private CompletableFuture<byte[]> slot(String key, int rank) {
        return published.computeIfAbsent(key + "/" + rank, k -> new CompletableFuture<>());
    }
}
