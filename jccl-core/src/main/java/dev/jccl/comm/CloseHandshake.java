package dev.jccl.comm;

import dev.jccl.bootstrap.Store;
import dev.jccl.bootstrap.StoreException;
import dev.jccl.bootstrap.StoreTimeoutException;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.Deadline;

import java.util.List;
import java.util.function.Supplier;

/**
 * Closing waits until every rank has closed: a rank may still be applying the last chunks a
 * finished rank sent it and must be able to return credits, so no rank tears its links down while
 * a peer may still use them. Counted in the store; the last rank to arrive sets {@code close/done}.
 * The wait is bounded by JCCL_TIMEOUT and gives up early when the communicator fails meanwhile.
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

    void await(Supplier<Failure> failure) {
        try {
            if (store.add("close/count", 1) == size) store.set("close/done", new byte[0]);
            Deadline deadline = Deadline.after(timeoutNs);
            while (true) {
                try {
                    store.wait(List.of("close/done"), sliceNs);
                    return;
                } catch (StoreTimeoutException e) {
                    if (failure.get() != null) return;
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
