package dev.jccl.verbs;

/**
 * A reliable-connected queue pair.
 *
 * <p>State machine: created in RESET; {@link #modifyToInit()}, then {@link #modifyToRtr} with the
 * peer's {@link ConnectInfo}, then {@link #modifyToRts()}. Any other order throws
 * {@link IllegalStateException} naming both states. Receives may be posted from INIT on, sends from
 * RTS on. Any state may go to ERR; in ERR every outstanding and every newly posted work request
 * completes with {@link WcStatus#WR_FLUSH_ERR}.
 *
 * <p>Posting never blocks. A full queue is back-pressure, returned as {@code false}; the caller polls
 * its completion queue and tries again. A contract breach (unknown lkey, sge outside its region,
 * wrong state for sends) throws {@link VerbsException} and changes nothing.
 *
 * <p>Errors the peer reports (bad rkey, no receive posted, peer gone) arrive as completions with an
 * error status and move the queue pair to ERR, as RC queue pairs do.
 *
 * <p>Thread-safety: posting to the send queue and to the receive queue may happen from different
 * threads, but each queue expects one posting thread at a time.
 */
public interface QueuePair extends AutoCloseable {
    int qpn();

    QpState state();

    /** This side's connection info, to hand to the peer. Valid from creation on. */
    ConnectInfo localInfo();

    void modifyToInit();

    /**
     * Binds to the peer. May block up to JCCL_TIMEOUT to establish the underlying connection;
     * failure throws {@link VerbsException} naming the peer address.
     */
    void modifyToRtr(ConnectInfo remote);

    void modifyToRts();

    /** Moves to ERR and flushes everything outstanding. Idempotent. */
    void modifyToError();

    /**
     * Returns false when the send queue is full; throws {@link VerbsException} on a contract breach.
     * Keeps no reference to {@code wr}: the caller may refill and post it again as soon as this
     * returns (as with {@code ibv_post_send}), so a steady sender needs one request object per queue.
     */
    boolean postSend(SendWr wr);

    /**
     * Posts {@code first}, then {@code second}, as one list, as {@code ibv_post_send} does with a chain of
     * two; returns how many were posted (0, 1, or 2 where the send queue had room for both). A provider may
     * hand both to the wire together: tcp writes small ones in one system call, so a credit posted with the
     * chunk behind it costs neither side a call of its own. Keeps no reference to either request.
     */
    default int postSend(SendWr first, SendWr second) {
        if (!postSend(first)) return 0;
        return postSend(second) ? 2 : 1;
    }

    /** Whether {@link #postSend(SendWr, SendWr)} costs less than two posts (tcp: one system call for small ones); false by default. */
    default boolean coalescesListPosts() {
        return false;
    }

    /** Returns false when the receive queue is full; throws {@link VerbsException} on a contract breach. */
    boolean postRecv(RecvWr wr);

    /** Human-readable description of the connection for logs: "0 -> 1 via SHM /dev/shm/...". */
    String describe();

    /**
     * A new accessor of the connected peer's registered memory, or null where this provider cannot
     * map it (the default; shm once connected). Valid until {@link #close}.
     */
    default PeerMemory openPeerMemory() {
        return null;
    }

    /**
     * Whether the connected peer has said it can read this process's private memory, named by
     * address alone ({@link PeerMemory#readPrivate}; shm, where the kernel lets it); false by default.
     */
    default boolean peerReadsPrivate() {
        return false;
    }

    /** Moves to ERR (flushing) and releases the connection. */
    @Override
    void close();
}
