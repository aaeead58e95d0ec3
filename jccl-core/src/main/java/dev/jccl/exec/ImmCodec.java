package dev.jccl.exec;

/**
 * The 32-bit immediate of every RDMA_WRITE_WITH_IMM on a link.
 *
 * <pre>
 *  bit 31 = 0: a data chunk; bits 0-30 = the fingerprint of the operation it belongs to
 *  bit 31 = 1: a credit return; bits 0-30 = how many slots the sender of the credit freed
 * </pre>
 *
 * The fingerprint lets the receiver check, on every chunk and without an extra round trip, that the
 * sender runs the same operation (sequence number, collective, count, type, op, root) it does.
 */
public final class ImmCodec {
    private static final int CREDIT_FLAG = 0x8000_0000;
    private static final int PAYLOAD = 0x7FFF_FFFF;

    private ImmCodec() {}

    public static int data(int fingerprint) {
        return fingerprint & PAYLOAD;
    }

    public static int credit(int slots) {
        if (slots < 1) throw new IllegalArgumentException("a credit return frees at least one slot, got " + slots);
        return CREDIT_FLAG | slots;
    }

    public static boolean isCredit(int imm) {
        return (imm & CREDIT_FLAG) != 0;
    }

    public static int payload(int imm) {
        return imm & PAYLOAD;
    }
}
