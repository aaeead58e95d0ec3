package dev.jccl.exec;

/**
 * The 32-bit immediate of every RDMA_WRITE_WITH_IMM on a link.
 *
 * <pre>
 *  bit 31 = 0: a data chunk; bits 0-30 = the fingerprint of the operation it belongs to, mixed with
 *              the chunk's index on the link
 *  bit 31 = 1: a credit return; bits 0-30 = how many slots the sender of the credit has freed in all,
 *              modulo 2^31
 * </pre>
 *
 * The fingerprint lets the receiver check, on every chunk and without an extra round trip, that the
 * sender runs the same operation (sequence number, collective, count, type, op, root) it does. The
 * chunk index mixed in (by an odd multiplier, a bijection, so no two indices give the same word)
 * makes a chunk that arrives out of place (lost, duplicated or reordered below the verbs contract)
 * fail that same check instead of being applied to the wrong slot. Credits are cumulative so that a
 * duplicated or overtaken credit message is stale, not extra credit.
 */
public final class ImmCodec {
    private static final int CREDIT_FLAG = 0x8000_0000;
    private static final int PAYLOAD = 0x7FFF_FFFF;

    private ImmCodec() {}

    private static final int MIX = 0x9E37_79B9;

    public static int data(int fingerprint) {
        return fingerprint & PAYLOAD;
    }

    /** The immediate of chunk number {@code chunkIndex} (counted on the link) of an operation. */
    public static int data(int fingerprint, long chunkIndex) {
        return (fingerprint ^ ((int) chunkIndex * MIX)) & PAYLOAD;
    }

    /** Mixed into a direct-read descriptor's immediate, so it never equals the data chunk's of the same index. */
    private static final int DIRECT_SALT = 0x5A5A_5A5A;

    /**
     * The immediate of chunk {@code chunkIndex} when it is a direct-read descriptor (the chunk's data
     * stays in the sender's shared buffer, see {@code Link}) rather than the data itself.
     */
    public static int direct(int fingerprint, long chunkIndex) {
        return data(fingerprint ^ DIRECT_SALT, chunkIndex);
    }

    private static final int PLACED_SALT = 0x3C3C_3C3C;

    /**
     * The immediate of a write of no bytes saying chunk {@code chunkIndex} is in the receiver's slot
     * already: the sender stored it there while reducing (a fused receive, see {@code ChannelRun}).
     */
    public static int placed(int fingerprint, long chunkIndex) {
        return data(fingerprint ^ PLACED_SALT, chunkIndex);
    }

    /**
     * Which chunk index within {@code window} of {@code expectedIndex} an immediate with the right
     * fingerprint but the wrong index carries; -1 if none (then the fingerprint differs).
     */
    public static long misplacedIndex(int imm, int fingerprint, long expectedIndex, int window) {
        for (long j = Math.max(0, expectedIndex - window); j <= expectedIndex + window; j++) {
            if (j != expectedIndex && data(fingerprint, j) == imm) return j;
        }
        return -1;
    }

    /** A credit return saying the sender of it has freed {@code totalFreed} slots since the link opened. */
    public static int credit(long totalFreed) {
        if (totalFreed < 1) throw new IllegalArgumentException("a credit return frees at least one slot, got " + totalFreed);
        return CREDIT_FLAG | (int) (totalFreed & PAYLOAD);
    }

    /**
     * Slots newly freed by a credit carrying {@code imm}, given {@code freed} counted so far: 0 for a
     * stale (duplicated or overtaken) credit.
     */
    public static long newlyFreed(int imm, long freed) {
        int delta = (payload(imm) - (int) (freed & PAYLOAD)) & PAYLOAD;
        return delta > (PAYLOAD >>> 1) ? 0 : delta;
    }

    public static boolean isCredit(int imm) {
        return (imm & CREDIT_FLAG) != 0;
    }

    public static int payload(int imm) {
        return imm & PAYLOAD;
    }
}
