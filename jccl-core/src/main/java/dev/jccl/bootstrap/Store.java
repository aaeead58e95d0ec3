package dev.jccl.bootstrap;

import java.util.List;
import java.util.Optional;

/**
 * The rendezvous key-value store every rank of a job shares while it bootstraps: ranks publish
 * addresses and queue-pair numbers under agreed keys and wait for each other's.
 *
 * <p>Contract of every implementation:
 * <ul>
 *   <li>Thread-safe: any thread may call any method; calls from one thread take effect in order.</li>
 *   <li>Keys are non-empty strings of at most {@link StoreLimits#MAX_KEY_BYTES} UTF-8 bytes, values
 *       at most {@link StoreLimits#MAX_VALUE_BYTES}; larger ones are refused with
 *       {@link IllegalArgumentException} before anything is sent.</li>
 *   <li>Only {@link #get} and {@link #wait(List, long)} block on other ranks, and only until their
 *       timeout; they fail with {@link StoreTimeoutException} naming the keys that never appeared.
 *       The other calls are a single round trip, bounded by the implementation's own timeout.</li>
 *   <li>Failures of the store itself (connection lost, server refused the request) throw
 *       {@link StoreException}. An interrupt ends a wait with {@link StoreException} and leaves the
 *       thread's interrupt flag set.</li>
 *   <li>Values handed in and out are copies: changing an array later never changes the store.</li>
 * </ul>
 */
public interface Store extends AutoCloseable {
    /** Stores {@code value} under {@code key}, replacing any earlier value, and wakes its waiters. */
    void set(String key, byte[] value);

    /** Blocks until {@code key} exists (at most {@code timeoutNs}), then returns its value. */
    byte[] get(String key, long timeoutNs);

    /** The value of {@code key} if it exists now; never blocks on other ranks. */
    Optional<byte[]> tryGet(String key);

    /**
     * Atomically adds {@code delta} to the counter at {@code key} (absent counts as 0) and returns
     * the new value. Counters are stored as decimal text, so {@link #get} of a counter reads "42".
     * Fails with {@link StoreException} when the key holds something that is not a counter or the
     * sum overflows.
     */
    long add(String key, long delta);

    /**
     * Atomically replaces the value of {@code key} with {@code desired} if it currently equals
     * {@code expected}; {@code expected == null} means "the key is absent". Returns the value the
     * key holds afterwards ({@code desired} on success, the unchanged current value otherwise,
     * {@code null} when the key is absent).
     */
    byte[] compareAndSet(String key, byte[] expected, byte[] desired);

    /** Blocks until every key in {@code keys} exists, at most {@code timeoutNs}. */
    void wait(List<String> keys, long timeoutNs);

    /** Removes {@code key}; returns whether it existed. */
    boolean delete(String key);

    /** Releases connections and threads; later calls fail with {@link StoreException}. Idempotent. */
    @Override
    void close();
}
