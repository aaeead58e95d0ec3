package dev.jccl.comm;

import dev.jccl.bootstrap.Store;
import dev.jccl.bootstrap.StoreTimeoutException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * Failure fan-out through the store. The first rank to fail publishes an {@link AbortRecord} with a
 * compare-and-set, so there is one first failure; every rank that learns of it publishes its
 * flight recorder and reads the others' (a bounded wait), and builds its report from what all ranks
 * say. Nothing here runs while operations progress: the store is read only after a failure, and
 * polled while this rank is idle or stalled.
 */
final class AbortBoard {
    private static final String ABORT = "abort";

    private final Store store;
    private final int rank;
    private final int size;

    AbortBoard(Store store, int rank, int size) {
        this.store = store;
        this.rank = rank;
        this.size = size;
    }

    /** Publishes {@code mine} unless a failure is already published; returns the one that counts. */
    AbortRecord raise(AbortRecord mine) {
        byte[] now = store.compareAndSet(ABORT, null, mine.encode());
        return now == null ? mine : AbortRecord.decode(now);
    }

    /** A rank that closed its communicator after {@code collectives} collectives, the last one {@code last}. */
    record Closed(int rank, long collectives, String last) {}

    /** One read of the board: the first failure, if any, and the ranks that closed so far. */
    record Snapshot(Optional<AbortRecord> abort, List<Closed> closed) {}

    Snapshot snapshot() {
        Optional<AbortRecord> abort = poll();
        if (store.add(CloseHandshake.CLOSED_COUNT, 0) == 0) return new Snapshot(abort, List.of());
        List<Closed> closed = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            if (r == rank) continue;
            int who = r;
            store.tryGet(CloseHandshake.closedKey(r)).ifPresent(v -> {
                String[] f = new String(v, StandardCharsets.UTF_8).split(" ", 2);
                closed.add(new Closed(who, Long.parseLong(f[0]), f.length > 1 ? f[1] : "none"));
            });
        }
        return new Snapshot(abort, closed);
    }

    Optional<AbortRecord> poll() {
        return store.tryGet(ABORT).map(AbortRecord::decode);
    }

    void publishRecorder(FlightRecorder recorder) {
        store.set("recorder/" + rank, recorder.encode().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Every rank's published recorder, waiting at most {@code waitNs} for all of them but
     * {@code lost} (ranks known or likely dead never publish).
     */
    Map<Integer, List<FlightRecorder.Published>> gatherRecorders(long waitNs, Set<Integer> lost) {
        List<String> keys = new ArrayList<>();
        List<String> awaited = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            keys.add("recorder/" + r);
            if (!lost.contains(r)) awaited.add("recorder/" + r);
        }
        try {
            store.wait(awaited, waitNs);
        } catch (StoreTimeoutException e) {
            // Report what the ranks that answered said; the others are named as silent.
        }
        Map<Integer, List<FlightRecorder.Published>> out = new TreeMap<>();
        for (int r = 0; r < size; r++) {
            Optional<byte[]> v = store.tryGet(keys.get(r));
            if (v.isPresent()) out.put(r, FlightRecorder.decode(new String(v.get(), StandardCharsets.UTF_8)));
        }
        return out;
    }
}
