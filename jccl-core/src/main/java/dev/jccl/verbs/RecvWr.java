package dev.jccl.verbs;

/**
 * A receive-queue work request. The buffer receives a SEND's payload; for RDMA_WRITE_WITH_IMM only
 * the immediate is delivered and the buffer may be {@link Sge#EMPTY}.
 */
public record RecvWr(long wrId, Sge local) {
    public RecvWr {
        if (local == null) throw new IllegalArgumentException("sge is required (use Sge.EMPTY)");
    }
}
