package dev.jccl.bootstrap;

import java.util.List;
import java.util.Optional;

/**
 * A view of a {@link Store} in which every key is {@code prefix + "/" + key}, so several users of one
 * store (communicators, their channels) never see each other's keys. Does not own the inner store:
 * {@link #close()} leaves it open. Prefixes nest: a prefix store of a prefix store joins both.
 * Timeouts report the full keys, which is what an operator finds when inspecting the store.
 */
public final class PrefixStore implements Store {
    private final Store inner;
    private final String prefix;

    public PrefixStore(Store inner, String prefix) {
        if (prefix == null || prefix.isEmpty()) throw new IllegalArgumentException("store prefix must be non-empty");
        StoreLimits.checkKey(prefix);
        this.inner = inner;
        this.prefix = prefix + "/";
    }

    /** The prefix with its trailing separator, e.g. "comm3/". */
    public String prefix() {
        return prefix;
    }

    @Override
    public void set(String key, byte[] value) {
        inner.set(full(key), value);
    }

    @Override
    public byte[] get(String key, long timeoutNs) {
        return inner.get(full(key), timeoutNs);
    }

    @Override
    public Optional<byte[]> tryGet(String key) {
        return inner.tryGet(full(key));
    }

    @Override
    public long add(String key, long delta) {
        return inner.add(full(key), delta);
    }

    @Override
    public byte[] compareAndSet(String key, byte[] expected, byte[] desired) {
        return inner.compareAndSet(full(key), expected, desired);
    }

    @Override
    public void wait(List<String> keys, long timeoutNs) {
        try {
            inner.wait(keys.stream().map(this::full).toList(), timeoutNs);
        } catch (StoreTimeoutException e) {
            // The caller named the keys without the prefix, and reads the missing ones back the same way.
            List<String> missing = e.missingKeys().stream()
                    .map(k -> k.startsWith(prefix) ? k.substring(prefix.length()) : k).toList();
            throw new StoreTimeoutException(missing, e.waitedNs());
        }
    }

    @Override
    public boolean delete(String key) {
        return inner.delete(full(key));
    }

    @Override
    public void close() {
        // The inner store belongs to whoever created it.
    }

    private String full(String key) {
        if (key == null || key.isEmpty()) throw new IllegalArgumentException("store key must be a non-empty string");
        return prefix + key;
    }
}
