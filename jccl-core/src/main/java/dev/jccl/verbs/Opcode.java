package dev.jccl.verbs;

/** Send-queue work request opcodes, as in {@code ibv_wr_opcode}. */
public enum Opcode {
    /** Two-sided: consumes a receive posted by the peer; payload lands in that receive's buffer. */
    SEND,
    /** One-sided write into the peer's region; the peer sees no completion. */
    RDMA_WRITE,
    /** One-sided write, then consumes a peer receive and completes it with the immediate. */
    RDMA_WRITE_WITH_IMM,
    /** One-sided read from the peer's region into local memory. */
    RDMA_READ
}
