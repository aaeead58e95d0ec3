package dev.jccl.bootstrap;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One pending wait in a {@link MemoryStore}: the keys it needs, how many are still missing, and the
 * callback to run once. {@link #claim()} decides exactly once whether the watch fires or is
 * cancelled (by a timeout), so a waiter is answered once even when both race.
 *
 * <p>{@code missing} and {@code values} are guarded by the store's monitor; the values are read by
 * {@link #run()} after {@link #claim()}, whose atomic write orders them (the snapshot happens inside
 * the monitor before the firing thread claims).
 */
final class KeyWatch {
    private final List<String> keys;
    private final Consumer<List<byte[]>> onReady;
    private final AtomicBoolean claimed = new AtomicBoolean();
    private int missing;
    private List<byte[]> values;

    KeyWatch(List<String> keys, Consumer<List<byte[]>> onReady) {
        this.keys = List.copyOf(keys);
        this.onReady = onReady;
    }

    List<String> keys() {
        return keys;
    }

    boolean claim() {
        return claimed.compareAndSet(false, true);
    }

    boolean isClaimed() {
        return claimed.get();
    }

    void setMissing(int n) {
        missing = n;
    }

    int countDown() {
        return --missing;
    }

    void snapshot(List<byte[]> vs) {
        values = vs;
    }

    void run() {
        onReady.accept(values);
    }
}
