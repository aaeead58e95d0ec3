package dev.jccl.bootstrap;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A {@link Store} inside one process: the state behind {@link TcpStoreServer}, and a store of its
 * own for ranks that are threads of one JVM.
 *
 * <p>Waiting is event-driven, never polled: a wait registers a {@link KeyWatch} indexed by each key
 * it still misses; a write of a new key counts down only the watches indexed under that key, so a
 * set costs O(waiters on that key), not O(all waiters x all keys). Watches fire outside the lock so a
 * slow callback (a socket write) never stalls other writers. One monitor guards everything.
 */
public final class MemoryStore implements Store {
    private final Map<String, byte[]> values = new HashMap<>();
    private final Map<String, Set<KeyWatch>> watchesByMissingKey = new HashMap<>();
    private boolean closed;

    /** An empty store, open until {@link #close()}. */
    public MemoryStore() {}

    @Override
    public void set(String key, byte[] value) {
        StoreLimits.checkKey(key);
        StoreLimits.checkValue(key, value);
        put(key, value.clone());
    }

    @Override
    public byte[] get(String key, long timeoutNs) {
        return await(List.of(key), timeoutNs).getFirst().clone();
    }

    @Override
    public Optional<byte[]> tryGet(String key) {
        StoreLimits.checkKey(key);
        synchronized (this) {
            checkOpen();
            byte[] v = values.get(key);
            return v == null ? Optional.empty() : Optional.of(v.clone());
        }
    }

    @Override
    public long add(String key, long delta) {
        StoreLimits.checkKey(key);
        List<KeyWatch> ready;
        long sum;
        synchronized (this) {
            checkOpen();
            byte[] old = values.get(key);
            sum = old == null ? delta : addExact(key, parseCounter(key, old), delta);
            ready = putLocked(key, Long.toString(sum).getBytes(StandardCharsets.US_ASCII));
        }
        fire(ready);
        return sum;
    }

    @Override
    public byte[] compareAndSet(String key, byte[] expected, byte[] desired) {
        StoreLimits.checkKey(key);
        StoreLimits.checkValue(key, desired);
        byte[] copy = desired.clone();
        List<KeyWatch> ready;
        synchronized (this) {
            checkOpen();
            byte[] current = values.get(key);
            boolean matches = expected == null ? current == null : current != null && Arrays.equals(current, expected);
            if (!matches) return current == null ? null : current.clone();
            ready = putLocked(key, copy);
        }
        fire(ready);
        return copy.clone();
    }

    @Override
    public void wait(List<String> keys, long timeoutNs) {
        await(keys, timeoutNs);
    }

    @Override
    public synchronized boolean delete(String key) {
        StoreLimits.checkKey(key);
        checkOpen();
        return values.remove(key) != null;
    }

    /** Fails every later call; waiters still blocked run into their own timeouts. */
    @Override
    public synchronized void close() {
        closed = true;
    }

    /** The subset of {@code keys} absent right now, in order. */
    public synchronized List<String> missing(List<String> keys) {
        return keys.stream().filter(k -> !values.containsKey(k)).toList();
    }

    /**
     * Registers {@code onReady} to run once, with the values of {@code keys} in order, as soon as all
     * of them exist; it runs on the calling thread before this returns if they already do, else on
     * the thread whose write completes the set. Never blocks. Pair with {@link #cancel(KeyWatch)}.
     */
    KeyWatch watch(List<String> keys, Consumer<List<byte[]>> onReady) {
        StoreLimits.checkKeys(keys);
        KeyWatch w = new KeyWatch(keys, onReady);
        List<KeyWatch> ready = new ArrayList<>(1);
        synchronized (this) {
            checkOpen();
            if (indexLocked(w)) ready.add(w);
        }
        fire(ready);
        return w;
    }

    /** Withdraws a watch; true if it had not fired, so the caller now owns its outcome (a timeout). */
    boolean cancel(KeyWatch w) {
        if (!w.claim()) return false;
        synchronized (this) {
            for (String k : w.keys()) {
                Set<KeyWatch> set = watchesByMissingKey.get(k);
                if (set != null && set.remove(w) && set.isEmpty()) watchesByMissingKey.remove(k);
            }
        }
        return true;
    }

    private List<byte[]> await(List<String> keys, long timeoutNs) {
        StoreLimits.checkTimeout(timeoutNs);
        long start = System.nanoTime();
        List<List<byte[]>> result = new ArrayList<>(1);
        CountDownLatch done = new CountDownLatch(1);
        KeyWatch w = watch(keys, vs -> {
            result.add(vs);
            done.countDown();
        });
        try {
            if (!done.await(timeoutNs, TimeUnit.NANOSECONDS) && cancel(w)) {
                throw new StoreTimeoutException(missing(keys), System.nanoTime() - start);
            }
            // Lost the race to a firing watch: its callback is running right now and ends at once.
            if (done.getCount() > 0 && !done.await(1, TimeUnit.SECONDS)) {
                throw new StoreException("store watch on " + keys + " fired but never delivered its values");
            }
        } catch (InterruptedException e) {
            cancel(w);
            Thread.currentThread().interrupt();
            throw new StoreException("interrupted while waiting for store keys " + keys, e);
        }
        return result.getFirst();
    }

    private void put(String key, byte[] value) {
        List<KeyWatch> ready;
        synchronized (this) {
            checkOpen();
            ready = putLocked(key, value);
        }
        fire(ready);
    }

    /** Stores the value and returns the watches this write completed, already unindexed. */
    private List<KeyWatch> putLocked(String key, byte[] value) {
        boolean isNew = values.put(key, value) == null;
        Set<KeyWatch> waiting = isNew ? watchesByMissingKey.remove(key) : null;
        if (waiting == null) return List.of();
        List<KeyWatch> ready = new ArrayList<>();
        for (KeyWatch w : waiting) {
            // A key counted earlier may have been deleted since; re-index instead of firing early.
            if (w.countDown() == 0 && indexLocked(w)) ready.add(w);
        }
        return ready;
    }

    /** Indexes {@code w} under each key it misses; returns true when it misses none. */
    private boolean indexLocked(KeyWatch w) {
        int missing = 0;
        for (String k : w.keys()) {
            if (values.containsKey(k)) continue;
            if (watchesByMissingKey.computeIfAbsent(k, x -> new HashSet<>()).add(w)) missing++;
        }
        w.setMissing(missing);
        if (missing == 0) w.snapshot(w.keys().stream().map(values::get).toList());
        return missing == 0;
    }

    private static void fire(List<KeyWatch> ready) {
        for (KeyWatch w : ready) {
            if (w.claim()) w.run();
        }
    }

    private void checkOpen() {
        if (closed) throw new StoreException("store is closed");
    }

    private static long parseCounter(String key, byte[] value) {
        String text = new String(value, StandardCharsets.US_ASCII);
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new StoreException("store key '" + key + "' holds " + value.length
                    + " bytes that are not a counter; add() needs decimal text");
        }
    }

    private static long addExact(String key, long a, long b) {
        try {
            return Math.addExact(a, b);
        } catch (ArithmeticException e) {
            throw new StoreException("counter '" + key + "' overflows: " + a + " + " + b);
        }
    }
}
