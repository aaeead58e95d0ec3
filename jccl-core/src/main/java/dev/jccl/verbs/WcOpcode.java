package dev.jccl.verbs;

/** Completion opcodes, as in {@code ibv_wc_opcode}. */
public enum WcOpcode { SEND, RDMA_WRITE, RDMA_READ, RECV, RECV_RDMA_WITH_IMM }
