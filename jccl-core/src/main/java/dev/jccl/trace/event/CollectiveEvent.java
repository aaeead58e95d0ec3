package dev.jccl.trace.event;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code dev.jccl.Collective}: one operation of one rank (a collective, a send or a
 * receive), from when it started, after every operation issued before it, until it completed or
 * failed. Its duration therefore includes connecting links the operation needed first and waiting
 * for the peers, as the flight recorder's entry does.
 *
 * <p>Free when no recording wants it: {@link #recording()} reads one flag, and an operation holds
 * an event object only while a recording is on. Written by the progress thread; no stack trace,
 * since that thread's stack says nothing about the caller.
 */
@Name("dev.jccl.Collective")
@Label("Collective")
@Category("jccl")
@Description("One jccl operation of one rank, from its start to its completion or failure")
@StackTrace(false)
public final class CollectiveEvent extends Event {
    private static final CollectiveEvent PROBE = new CollectiveEvent();

    @Label("Operation") @Description("allReduce, broadcast, send, ...")
    private String op;
    @Label("Bytes") @Description("count x element size, as the caller passed it") @DataAmount
    private long bytes;
    @Label("Count")
    private long count;
    @Label("Data Type")
    private String dataType;
    @Label("Reduce Op")
    private String reduceOp;
    @Label("Root or Peer") @Description("root of a rooted collective, peer of a send or receive, else -1")
    private int root;
    @Label("Algorithm") @Description("the tuner's choice; empty for point-to-point")
    private String algorithm;
    @Label("Channels")
    private int channels;
    @Label("Ranks")
    private int ranks;
    @Label("Rank")
    private int rank;
    @Label("Seq") @Description("this rank's operation number, Work.seq()")
    private long seq;
    @Label("Match Seq") @Description("the number ranks agree on: among collectives, or among sends to one peer")
    private long matchSeq;
    @Label("Succeeded")
    private boolean succeeded;

    /** Whether a recording wants these events now; reads one flag and allocates nothing. */
    public static boolean recording() {
        return PROBE.isEnabled();
    }

    /** Starts the event of one operation; call only when {@link #recording()}. */
    public static CollectiveEvent begin(int rank, int ranks, long seq, String op, long matchSeq, long count, long bytes,
                                        String dataType, String reduceOp, int root) {
        CollectiveEvent e = new CollectiveEvent();
        e.rank = rank;
        e.ranks = ranks;
        e.seq = seq;
        e.op = op;
        e.matchSeq = matchSeq;
        e.count = count;
        e.bytes = bytes;
        e.dataType = dataType;
        e.reduceOp = reduceOp;
        e.root = root;
        e.begin();
        return e;
    }

    /** What the plan chose, once it is known. */
    public void planned(String algorithm, int channels) {
        this.algorithm = algorithm;
        this.channels = channels;
    }

    /** Ends and commits the event. */
    public void finish(boolean succeeded) {
        this.succeeded = succeeded;
        end();
        if (shouldCommit()) commit();
    }
}
