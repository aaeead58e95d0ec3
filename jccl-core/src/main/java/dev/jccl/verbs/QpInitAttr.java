package dev.jccl.verbs;

/**
 * Creation attributes of a queue pair, as in {@code ibv_qp_init_attr}.
 *
 * @param sendCq    receives completions of send-queue work requests
 * @param recvCq    receives completions of receive-queue work requests (may equal sendCq)
 * @param maxSendWr send queue depth: outstanding send work requests before postSend returns false
 * @param maxRecvWr receive queue depth
 */
public record QpInitAttr(CompletionQueue sendCq, CompletionQueue recvCq, int maxSendWr, int maxRecvWr) {
    public QpInitAttr {
        if (sendCq == null || recvCq == null) throw new IllegalArgumentException("a queue pair needs both CQs");
        if (maxSendWr < 1 || maxRecvWr < 1) {
            throw new IllegalArgumentException("queue depths must be >= 1: send=" + maxSendWr + " recv=" + maxRecvWr);
        }
    }

    public static QpInitAttr of(CompletionQueue cq, int depth) {
        return new QpInitAttr(cq, cq, depth, depth);
    }
}
