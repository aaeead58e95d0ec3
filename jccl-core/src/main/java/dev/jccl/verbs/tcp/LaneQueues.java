package dev.jccl.verbs.tcp;

import java.util.ArrayDeque;

/**
 * The frames waiting on one {@link OutboundLane}, and the pool they are recycled into: control frames
 * (ACK, NAK, heartbeat), which overtake data at frame boundaries, and data frames (requests,
 * READ_RESPONSEs) in posting order, each with a ticket so a poster can tell when its frame has left.
 * Every method holds this object's monitor; the lane's writer takes frames from here in batches
 * ({@link FrameBatch}).
 */
final class LaneQueues {
    private final ArrayDeque<OutFrame> control = new ArrayDeque<>();
    private final ArrayDeque<OutFrame> data = new ArrayDeque<>();
    private final ArrayDeque<OutFrame> pool = new ArrayDeque<>();
    private long dataQueued;

    synchronized OutFrame obtain() {
        OutFrame f = pool.pollFirst();
        return f != null ? f : new OutFrame();
    }

    synchronized void recycle(OutFrame f) {
        f.clear();
        pool.addLast(f);
    }

    /** Queues a data frame behind earlier ones; returns its ticket (the count of data frames queued so far), or 0 if {@code closing}. */
    synchronized long queueData(OutFrame frame, boolean closing) {
        if (closing) {
            recycle(frame);
            return 0;
        }
        data.addLast(frame);
        return ++dataQueued;
    }

    synchronized void queueControl(OutFrame frame) {
        control.addLast(frame);
    }

    /** An ACK up to {@code seq}: merged into an ACK still queued last rather than followed by another. */
    synchronized void queueAck(long seq) {
        OutFrame last = control.peekLast();
        if (last != null && last.codec.type() == FrameDescriptor.TYPE_ACK) {
            last.codec.encodeAck(Math.max(seq, last.codec.seq()));
        } else {
            OutFrame f = obtain();
            f.codec.encodeAck(seq);
            control.addLast(f);
        }
    }

    /** A heartbeat: an ACK that acknowledges nothing. */
    synchronized void queueHeartbeat() {
        OutFrame f = obtain();
        f.codec.encodeHeartbeat();
        control.addLast(f);
    }

    synchronized boolean hasQueued(boolean closing) {
        return !control.isEmpty() || (!closing && !data.isEmpty());
    }

    /** Fills {@code batch} with the next frames to write; 0 when nothing is queued. A closing lane drops its data first. */
    synchronized int take(FrameBatch batch, boolean closing) {
        if (closing) while (!data.isEmpty()) recycle(data.pollFirst());
        return batch.take(control, data);
    }

    /** {@link FrameBatch#settle} under this monitor: frames written whole go to {@code done}, the untouched ones back here. */
    synchronized OutFrame settle(FrameBatch batch, FrameBatch.Done done) {
        return batch.settle(done, control, data);
    }
}
