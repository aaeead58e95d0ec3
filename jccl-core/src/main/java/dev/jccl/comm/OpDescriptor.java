package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;

import java.util.Locale;

/**
 * What one operation is, as ranks must agree on it: its kind, the sequence number it matches on
 * ({@code matchSeq}: the collective's number among this communicator's collectives, or a send's
 * number among the sends to that peer), count, type, operator and root (the peer for send/recv).
 * {@code opSeq} is the rank-local number {@link dev.jccl.Work#seq()} shows.
 *
 * <p>The 31-bit {@link #fingerprint()} hashes exactly the fields both ends must agree on; a send and
 * the matching receive hash alike (the peer is implied by the link).
 */
record OpDescriptor(long opSeq, OpKind kind, long matchSeq, long count, DataType type, ReduceOp op, int root) {

    int fingerprint() {
        return fingerprint(kind, matchSeq, count, type, op, root);
    }

    /** {@link #fingerprint()} of the descriptor these fields would make, without making it. */
    static int fingerprint(OpKind kind, long matchSeq, long count, DataType type, ReduceOp op, int root) {
        long h = 0x9E3779B97F4A7C15L;
        h = mix(h, kind.pointToPoint() ? 0x50325000L : kind.ordinal());
        h = mix(h, matchSeq);
        h = mix(h, count);
        h = mix(h, type == null ? -1 : type.ordinal());
        h = mix(h, op == null ? -1 : op.ordinal());
        h = mix(h, kind.pointToPoint() ? -1 : root);
        return (int) (h ^ (h >>> 32)) & 0x7FFF_FFFF;
    }

    private static long mix(long h, long v) {
        long x = h ^ (v + 0x632BE59BD9B4E019L + (h << 6) + (h >>> 2));
        x ^= x >>> 33;
        x *= 0xFF51AFD7ED558CCDL;
        x ^= x >>> 33;
        return x;
    }

    /** "allReduce #3 (1000 x float, sum)" or "send #0 to rank 2 (10 x int32)". */
    String describe() {
        StringBuilder b = new StringBuilder(kind.apiName());
        b.append(" #").append(matchSeq);
        if (kind == OpKind.SEND) b.append(" to rank ").append(root);
        if (kind == OpKind.RECV) b.append(" from rank ").append(root);
        if (kind != OpKind.BARRIER) {
            b.append(" (").append(count).append(" x ").append(type.ncclName());
            if (op != null) b.append(", ").append(op.ncclName());
            if (kind.rooted()) b.append(", root ").append(root);
            b.append(')');
        }
        return b.toString();
    }

    /** One line for the store: fields separated by spaces. */
    String encode() {
        return String.format(Locale.ROOT, "%d %s %d %d %s %s %d", opSeq, kind.apiName(), matchSeq, count,
                type == null ? "-" : type.ncclName(), op == null ? "-" : op.ncclName(), root);
    }

    static OpDescriptor decode(String line) {
        String[] f = line.trim().split(" ");
        if (f.length != 7) throw new IllegalArgumentException("malformed operation descriptor '" + line + "'");
        return new OpDescriptor(Long.parseLong(f[0]), OpKind.byApiName(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]),
                f[4].equals("-") ? null : DataType.parse(f[4]), f[5].equals("-") ? null : ReduceOp.parse(f[5]), Integer.parseInt(f[6]));
    }
}
