package dev.jccl.trace.event;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code dev.jccl.Bucket}: one gradient bucket of one data-parallel step, from the moment
 * it left (its collective was issued) until it was first seen complete, the same span the timeline
 * shows. Committed by whichever thread saw the completion first. Free when no recording wants it
 * ({@link #recording()} reads one flag).
 */
@Name("dev.jccl.Bucket")
@Label("DDP Bucket")
@Category("jccl")
@Description("One gradient bucket's collective in one data-parallel step, from launch to completion")
@StackTrace(false)
public final class BucketEvent extends Event {
    private static final BucketEvent PROBE = new BucketEvent();

    @Label("Bucket") @Description("index in launch order")
    private int bucket;
    @Label("Bytes") @Description("bytes on the wire, tail included") @DataAmount
    private long bytes;
    @Label("Parameters")
    private int params;
    @Label("Step") @Description("synchronized steps completed before this one")
    private long step;
    @Label("Data Type")
    private String dataType;
    @Label("Collective") @Description("allReduce, or reduceScatter when sharded")
    private String collective;
    @Label("Rank")
    private int rank;

    /** Whether a recording wants these events now; reads one flag and allocates nothing. */
    public static boolean recording() {
        return PROBE.isEnabled();
    }

    /** Starts the event of a bucket that leaves now; call only when {@link #recording()}. */
    public static BucketEvent begin(int rank, long step, int bucket, long bytes, int params, String dataType, String collective) {
        BucketEvent e = new BucketEvent();
        e.rank = rank;
        e.step = step;
        e.bucket = bucket;
        e.bytes = bytes;
        e.params = params;
        e.dataType = dataType;
        e.collective = collective;
        e.begin();
        return e;
    }

    /** Ends and commits the event. */
    public void finish() {
        end();
        if (shouldCommit()) commit();
    }
}
