package dev.jccl;

/**
 * A peer's connection failed while an operation needed it: the peer process died, closed its
 * communicator, or its host became unreachable. Names the lost rank and the operation in flight.
 */
public class PeerLostException extends JcclException {
    private final int lostRank;
    private final String op;
    private final long seq;

    public PeerLostException(String message, int lostRank, String op, long seq) {
        super(message);
        this.lostRank = lostRank;
        this.op = op;
        this.seq = seq;
    }

    /** The rank whose connection failed first. */
    public int lostRank() {
        return lostRank;
    }

    /** The operation this exception fails, e.g. "allReduce". */
    public String op() {
        return op;
    }

    /** Sequence number of that operation on this rank ({@link Work#seq()}). */
    public long seq() {
        return seq;
    }
}
