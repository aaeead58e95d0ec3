package dev.jccl.bootstrap;

import java.util.ArrayList;
import java.util.List;

/**
 * A reusable barrier through the store. Round {@code g} of barrier {@code name} uses the keys
 * {@code barrier/<name>/<g>/...}: each rank marks its arrival, increments the counter, and the rank
 * that brings it to the world size sets {@code done}, which everyone waits for.
 *
 * <p>The per-rank arrival marks exist for the timeout message, which names the ranks that never
 * came. Keys of finished rounds are deleted: a rank that passes round g deletes its own arrival mark,
 * and rank 0, passing round g, deletes round g-1's counter and flag (every rank has left round g-1's
 * wait by then, since all of them arrived at g). Not thread-safe; all ranks call {@link #await()}
 * the same number of times.
 */
public final class StoreBarrier {
    private static final byte[] EMPTY = new byte[0];
    private final Store store;
    private final int rank;
    private final int worldSize;
    private final String name;
    private final long timeoutNs;
    private int round;

    public StoreBarrier(Store store, int rank, int worldSize, String name, long timeoutNs) {
        if (worldSize < 1 || rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank " + rank + " outside [0, " + worldSize + ")");
        }
        StoreLimits.checkTimeout(timeoutNs);
        this.store = store;
        this.rank = rank;
        this.worldSize = worldSize;
        this.name = name;
        this.timeoutNs = timeoutNs;
    }

    /** Returns once every rank has called this for the same round, or throws after the timeout. */
    public void await() {
        int g = round++;
        String base = base(g);
        store.set(base + "arrived/" + rank, EMPTY);
        long arrived = store.add(base + "count", 1);
        if (arrived > worldSize) {
            throw new StoreException("barrier '" + name + "' round " + g + " counted " + arrived + " arrivals for "
                    + worldSize + " ranks: two groups share the barrier name, or their world sizes differ");
        }
        if (arrived == worldSize) store.set(base + "done", EMPTY);
        try {
            store.wait(List.of(base + "done"), timeoutNs);
        } catch (StoreTimeoutException e) {
            throw timeout(g, base, e);
        }
        store.delete(base + "arrived/" + rank);
        if (rank == 0 && g > 0) {
            store.delete(base(g - 1) + "count");
            store.delete(base(g - 1) + "done");
        }
    }

    private String base(int g) {
        return "barrier/" + name + "/" + g + "/";
    }

    private StoreTimeoutException timeout(int g, String base, StoreTimeoutException e) {
        List<Integer> absent = new ArrayList<>();
        for (int r = 0; r < worldSize; r++) {
            if (store.tryGet(base + "arrived/" + r).isEmpty()) absent.add(r);
        }
        return new StoreTimeoutException("barrier '" + name + "' round " + g + ": " + PeerExchange.ranks(absent)
                + " did not arrive within " + StoreTimeoutException.seconds(e.waitedNs()) + " (" + (worldSize - absent.size())
                + " of " + worldSize + " arrived; this is rank " + rank + ")", e.missingKeys(), e.waitedNs());
    }
}
