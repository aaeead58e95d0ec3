package dev.jccl.verbs;

/**
 * Creation attributes of a queue pair, as in {@code ibv_qp_init_attr}.
 *
 * @param sendCq    receives completions of send-queue work requests
 * @param recvCq    receives completions of receive-queue work requests (may equal sendCq)
 * @param maxSendWr send queue depth: outstanding send work requests before postSend returns false
 * @param maxRecvWr receive queue depth
 * @param sendBufferCompletion the consumer reads a send completion only as "the source buffer and the send
 *                  queue slot are free again", never as "the peer has the data" (its own protocol says
 *                  that, as the collectives' credits do). A provider may then complete a small request
 *                  whose payload it copied at the post without waiting for the peer's acknowledgement
 *                  (tcp: {@code JCCL_TCP_INLINE=auto}); others ignore it. False keeps RC's meaning.
 */
public record QpInitAttr(CompletionQueue sendCq, CompletionQueue recvCq, int maxSendWr, int maxRecvWr, boolean sendBufferCompletion) {
    public QpInitAttr {
        if (sendCq == null || recvCq == null) throw new IllegalArgumentException("a queue pair needs both CQs");
        if (maxSendWr < 1 || maxRecvWr < 1) {
            throw new IllegalArgumentException("queue depths must be >= 1: send=" + maxSendWr + " recv=" + maxRecvWr);
        }
    }

    /** RC's meaning of a send completion: the peer has the data. */
    public QpInitAttr(CompletionQueue sendCq, CompletionQueue recvCq, int maxSendWr, int maxRecvWr) {
        this(sendCq, recvCq, maxSendWr, maxRecvWr, false);
    }

    public static QpInitAttr of(CompletionQueue cq, int depth) {
        return new QpInitAttr(cq, cq, depth, depth);
    }
}
