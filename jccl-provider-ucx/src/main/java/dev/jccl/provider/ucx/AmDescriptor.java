package dev.jccl.provider.ucx;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * The header of every active message this provider sends (one AM id, told apart by {@code kind}).
 * Native byte order: both ends run this code on one architecture family, as UCX itself assumes.
 *
 * <pre>
 *   0 kind   4 dstQpn   8 srcQpn   12 imm (or rkey)
 *  16 seq (sender's work-request sequence, or a revocation token)
 *  24 a (remote address)   32 b (length)   40 flags   44 status (a WcStatus ordinal in a NAK)
 *  48 ack (1 + the sequence of a request of the peer's this message acknowledges; 0 = none)
 * </pre>
 *
 * <p>{@code ack} lets a SEND or WRITE_WITH_IMM carry the acknowledgement of the request that
 * prompted it, so a ping-pong sends one message per turn, not two (see {@link OwedAck}).
 */
final class AmDescriptor {
    static final int BYTES = 56;

    static final int SEND = 1;
    static final int WRITE_IMM = 2;
    static final int ACK = 3;
    static final int NAK = 4;
    static final int RKEY_REQUEST = 5;
    static final int RKEY_REPLY = 6;
    static final int REVOKE = 7;
    static final int REVOKE_ACK = 8;
    static final int BYE = 9;

    static final int FLAG_FOUND = 1;
    static final int FLAG_REMOTE_WRITE = 2;
    static final int FLAG_REMOTE_READ = 4;

    private AmDescriptor() {}

    static void write(MemorySegment h, int kind, int dstQpn, int srcQpn, int imm, long seq, long a, long b, int flags,
                      int status, long ack) {
        h.set(JAVA_INT_UNALIGNED, 0, kind);
        h.set(JAVA_INT_UNALIGNED, 4, dstQpn);
        h.set(JAVA_INT_UNALIGNED, 8, srcQpn);
        h.set(JAVA_INT_UNALIGNED, 12, imm);
        h.set(JAVA_LONG_UNALIGNED, 16, seq);
        h.set(JAVA_LONG_UNALIGNED, 24, a);
        h.set(JAVA_LONG_UNALIGNED, 32, b);
        h.set(JAVA_INT_UNALIGNED, 40, flags);
        h.set(JAVA_INT_UNALIGNED, 44, status);
        h.set(JAVA_LONG_UNALIGNED, 48, ack);
    }

    /** A received header, copied out of UCX's buffer (valid only inside the callback); reused with its {@link Inbound}. */
    static final class Header {
        private int kind;
        private int dstQpn;
        private int srcQpn;
        private int imm;
        private long seq;
        private long a;
        private long b;
        private int flags;
        private int status;
        private long ack;

        int kind() { return kind; }
        int dstQpn() { return dstQpn; }
        int srcQpn() { return srcQpn; }
        int imm() { return imm; }
        long seq() { return seq; }
        long a() { return a; }
        long b() { return b; }
        int flags() { return flags; }
        int status() { return status; }
        long ack() { return ack; }
    }

    /** Decodes the header at {@code address} into {@code h}; false when it is not one of ours (wrong size or kind). */
    static boolean read(long address, long length, Header h) {
        if (length != BYTES) return false;
        MemorySegment m = UcpText.ALL;
        int kind = m.get(JAVA_INT_UNALIGNED, address);
        if (kind < SEND || kind > BYE) return false;
        h.kind = kind;
        h.dstQpn = m.get(JAVA_INT_UNALIGNED, address + 4);
        h.srcQpn = m.get(JAVA_INT_UNALIGNED, address + 8);
        h.imm = m.get(JAVA_INT_UNALIGNED, address + 12);
        h.seq = m.get(JAVA_LONG_UNALIGNED, address + 16);
        h.a = m.get(JAVA_LONG_UNALIGNED, address + 24);
        h.b = m.get(JAVA_LONG_UNALIGNED, address + 32);
        h.flags = m.get(JAVA_INT_UNALIGNED, address + 40);
        h.status = m.get(JAVA_INT_UNALIGNED, address + 44);
        h.ack = m.get(JAVA_LONG_UNALIGNED, address + 48);
        return true;
    }
}
