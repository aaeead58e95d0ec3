package dev.jccl.verbs;

/**
 * A send-queue work request, as in {@code ibv_send_wr} with one sge.
 *
 * @param wrId          returned in the completion
 * @param opcode        what to do
 * @param local         local memory: the source of SEND/WRITE, the sink of READ
 * @param remoteAddress peer address (RDMA ops only)
 * @param rkey          peer region key (RDMA ops only)
 * @param imm           immediate data (RDMA_WRITE_WITH_IMM only)
 * @param signaled      whether a successful completion is reported; errors always are
 */
public record SendWr(long wrId, Opcode opcode, Sge local, long remoteAddress, int rkey, int imm, boolean signaled) {
    public SendWr {
        if (opcode == null || local == null) throw new IllegalArgumentException("opcode and sge are required");
        if (local.length() < 0) throw new IllegalArgumentException("negative length " + local.length());
    }

    public static SendWr send(long wrId, Sge local) {
        return new SendWr(wrId, Opcode.SEND, local, 0, 0, 0, true);
    }

    public static SendWr write(long wrId, Sge local, long remoteAddress, int rkey) {
        return new SendWr(wrId, Opcode.RDMA_WRITE, local, remoteAddress, rkey, 0, true);
    }

    public static SendWr writeWithImm(long wrId, Sge local, long remoteAddress, int rkey, int imm) {
        return new SendWr(wrId, Opcode.RDMA_WRITE_WITH_IMM, local, remoteAddress, rkey, imm, true);
    }

    public static SendWr read(long wrId, Sge local, long remoteAddress, int rkey) {
        return new SendWr(wrId, Opcode.RDMA_READ, local, remoteAddress, rkey, 0, true);
    }

    public SendWr unsignaled() {
        return new SendWr(wrId, opcode, local, remoteAddress, rkey, imm, false);
    }
}
