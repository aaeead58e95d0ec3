package dev.jccl.comm;

import java.nio.charset.StandardCharsets;

/**
 * The first failure of a communicator as published in the store under {@code abort}: its kind,
 * the rank that raised it, the lost rank (for PEER_LOST, else -1), the operation it happened in
 * (the matching sequence of a collective, -1 if none) and a one-line reason. Every rank that learns
 * of it, through a broken link or by polling, reports this same first failure.
 */
record AbortRecord(Failure.Kind kind, int raisedBy, int lostRank, String reason) {
    byte[] encode() {
        return (kind + " " + raisedBy + " " + lostRank + "\n" + reason).getBytes(StandardCharsets.UTF_8);
    }

    static AbortRecord decode(byte[] bytes) {
        String s = new String(bytes, StandardCharsets.UTF_8);
        int nl = s.indexOf('\n');
        String[] head = (nl < 0 ? s : s.substring(0, nl)).split(" ");
        if (head.length != 3) throw new IllegalArgumentException("malformed abort record '" + s + "'");
        return new AbortRecord(Failure.Kind.valueOf(head[0]), Integer.parseInt(head[1]), Integer.parseInt(head[2]),
                nl < 0 ? "" : s.substring(nl + 1));
    }
}
