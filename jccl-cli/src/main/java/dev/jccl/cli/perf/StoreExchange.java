package dev.jccl.cli.perf;

import dev.jccl.bootstrap.Store;

/** {@link Exchange} between two ranks through the job's bootstrap store. */
public final class StoreExchange implements Exchange {
    private final Store store;
    private final int rank;
    private final int peer;
    private final long timeoutNs;

    public StoreExchange(Store store, int rank, int peer, long timeoutNs) {
        this.store = store;
        this.rank = rank;
        this.peer = peer;
        this.timeoutNs = timeoutNs;
    }

    @Override
    public byte[] swap(String key, byte[] mine) {
        store.set("perf/" + key + "/" + rank, mine);
        return store.get("perf/" + key + "/" + peer, timeoutNs);
    }
}
