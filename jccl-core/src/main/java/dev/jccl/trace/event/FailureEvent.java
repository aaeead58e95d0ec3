package dev.jccl.trace.event;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * JFR event {@code dev.jccl.Failure}: a communicator failed on this rank (a mismatch, a lost peer,
 * a timeout, an abort, a transport error), with the operation in flight and the report every
 * pending operation fails with. Each rank that detects or learns of a failure records one.
 */
@Name("dev.jccl.Failure")
@Label("Failure")
@Category("jccl")
@Description("A communicator failed on this rank: kind, operation in flight, lost rank, report")
public final class FailureEvent extends Event {
    @Label("Rank")
    private int rank;
    @Label("Kind") @Description("MISMATCH, TIMEOUT, PEER_LOST, ABORTED or ERROR")
    private String kind;
    @Label("Operation") @Description("the operation in flight on this rank; empty between operations")
    private String op;
    @Label("Seq") @Description("that operation's Work.seq(), else -1")
    private long seq;
    @Label("Lost Rank") @Description("the rank that was lost, else -1")
    private int lostRank;
    @Label("Message") @Description("the failure report")
    private String message;

    /** Records one failure at once; a failure is rare, so this allocates even when nothing records. */
    public static void record(int rank, String kind, String op, long seq, int lostRank, String message) {
        FailureEvent e = new FailureEvent();
        if (!e.isEnabled()) return;
        e.rank = rank;
        e.kind = kind;
        e.op = op;
        e.seq = seq;
        e.lostRank = lostRank;
        e.message = message;
        e.commit();
    }
}
