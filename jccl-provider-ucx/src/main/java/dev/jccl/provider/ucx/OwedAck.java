package dev.jccl.provider.ucx;

/**
 * The acknowledgement a queue pair owes its peer for the last SEND or WRITE_WITH_IMM it delivered,
 * held back until the start of the context's next progress pass. Meanwhile the application, which
 * has just seen the completion, often answers, and the answer carries the acknowledgement
 * ({@link AmDescriptor}'s ack field): a ping-pong then sends one message a turn instead of two, and
 * the second message's syscall no longer delays the reply on tcp.
 *
 * <p>At most one is owed: the next delivery sends the older one at once, so acknowledgements leave
 * in order and streaming senders are not slowed. Every progress pass, and the agent before it
 * sleeps, sends what is still owed, so a sender waits at most one pass longer than before.
 * Guarded by the worker lock.
 */
final class OwedAck {
    private static final long NONE = -1;

    private final UcxQueuePair qp;
    private long seq = NONE;

    OwedAck(UcxQueuePair qp) {
        this.qp = qp;
    }

    /** The peer's request {@code delivered} has landed: owe its acknowledgement. */
    void owe(long delivered) {
        long older = seq;
        seq = NONE;
        if (older != NONE) qp.sendAck(older);
        seq = delivered;
        qp.context().owing(this);
    }

    /** For a message about to leave: the value of its ack field (0 when nothing is owed), now paid. */
    long take() {
        if (seq == NONE) return 0;
        long ack = seq + 1;
        seq = NONE;
        return ack;
    }

    /** Sends what is owed as an ACK of its own; false when nothing was. */
    boolean pay() {
        if (seq == NONE) return false;
        long s = seq;
        seq = NONE;
        qp.sendAck(s);
        return true;
    }
}
