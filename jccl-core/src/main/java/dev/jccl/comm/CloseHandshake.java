package dev.jccl.comm;

import dev.jccl.bootstrap.Store;
import dev.jccl.bootstrap.StoreException;
import dev.jccl.bootstrap.StoreTimeoutException;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.Deadline;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * Closing waits until every rank has closed: a rank may still be applying the last chunks a
 * finished rank sent it and must be able to return credits, so no rank tears its links down while
 * a peer may still use them. Counted in the store; the last rank to arrive sets {@code close/done}.
 * The wait is bounded by JCCL_TIMEOUT and gives up early when the communicator fails meanwhile
 * or a peer is already gone.
 */
final class CloseHandshake {
    private final Store store;
    private final int rank;
    private final int size;
    private final long timeoutNs;
    private final long sliceNs;

    CloseHandshake(Store store, int rank, int size, long timeoutNs, long sliceNs) {
        this.store = store;
        this.rank = rank;
        this.size = size;
        this.timeoutNs = timeoutNs;
        this.sliceNs = sliceNs;
    }

    /** Key of what a closing rank says about itself: how many collectives it issued, and the last one. */
    static String closedKey(int rank) {
        return "closed/" + rank;
    }

    static final String CLOSED_COUNT = "closed/count";

    /**
     * Tells the ranks still working that this one is gone for good after {@code collectives}
     * collectives (the last {@code last}), so one that waits in a later collective fails at once
     * naming it, instead of waiting out JCCL_TIMEOUT for a rank that will never come.
     */
    void announce(long collectives, String last) {
        try {
            store.set(closedKey(rank), (collectives + " " + last).getBytes(StandardCharsets.UTF_8));
            store.add(CLOSED_COUNT, 1);
        } catch (StoreException e) {
            Log.warn(Subsys.INIT, "rank %d: could not tell the others it is closing: %s", rank, e.getMessage());
        }
    }

    void await(BooleanSupplier giveUp) {
        try {
            if (store.add("close/count", 1) == size) store.set("close/done", new byte[0]);
            Deadline deadline = Deadline.after(timeoutNs);
            while (true) {
                try {
                    store.wait(List.of("close/done"), sliceNs);
                    return;
                } catch (StoreTimeoutException e) {
                    if (giveUp.getAsBoolean()) return;
                    if (deadline.expired()) {
                        Log.warn(Subsys.INIT, "rank %d: closing without the other ranks: not all of %d closed within JCCL_TIMEOUT", rank, size);
                        return;
                    }
                }
            }
        } catch (StoreException e) {
            Log.warn(Subsys.INIT, "rank %d: close handshake failed, closing anyway: %s", rank, e.getMessage());
        }
    }
}
