package dev.jccl.bootstrap;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Size bounds for keys and values, checked on every path into a store so that a runaway caller
 * fails with a clear message instead of growing the store (or a wire frame) without limit.
 */
public final class StoreLimits {
    /** Longest key, in UTF-8 bytes. */
    public static final int MAX_KEY_BYTES = 1024;
    /** Largest value: far above any address blob, small enough to hold thousands of ranks' worth. */
    public static final int MAX_VALUE_BYTES = 4 << 20;
    /** Most keys one {@link Store#wait(List, long)} may name. */
    public static final int MAX_WAIT_KEYS = 16_384;

    private StoreLimits() {}

    /** Returns the key's UTF-8 bytes after checking it is non-empty and not too long. */
    public static byte[] checkKey(String key) {
        if (key == null || key.isEmpty()) throw new IllegalArgumentException("store key must be a non-empty string");
        byte[] utf8 = key.getBytes(StandardCharsets.UTF_8);
        if (utf8.length > MAX_KEY_BYTES) {
            throw new IllegalArgumentException("store key of " + utf8.length + " bytes exceeds the " + MAX_KEY_BYTES
                    + "-byte limit: '" + key.substring(0, 40) + "...'");
        }
        return utf8;
    }

    public static void checkValue(String key, byte[] value) {
        if (value == null) throw new IllegalArgumentException("store value for '" + key + "' is null");
        if (value.length > MAX_VALUE_BYTES) {
            throw new IllegalArgumentException("store value for '" + key + "' is " + value.length
                    + " bytes, over the " + MAX_VALUE_BYTES + "-byte limit");
        }
    }

    public static void checkKeys(List<String> keys) {
        if (keys.size() > MAX_WAIT_KEYS) {
            throw new IllegalArgumentException("wait on " + keys.size() + " keys exceeds the limit of " + MAX_WAIT_KEYS);
        }
        for (String k : keys) checkKey(k);
    }

    public static void checkTimeout(long timeoutNs) {
        if (timeoutNs < 0) throw new IllegalArgumentException("negative store timeout: " + timeoutNs + " ns");
    }
}
