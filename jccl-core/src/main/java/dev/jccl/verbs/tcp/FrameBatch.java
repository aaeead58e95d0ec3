package dev.jccl.verbs.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;

/**
 * Frames queued on one {@link OutboundLane} together, written with one gathering write: every frame
 * whose bytes lie in its own buffers ({@link OutFrame#ownBuffers}), and the header of a last one whose
 * payload is a view of registered memory (that payload follows in a write of its own, as it would
 * alone). So a credit posted with the chunk behind it, an ACK ahead of a chunk, or a burst of small
 * chunks leave in one system call. On loopback each write runs
 * the peer's receive path too, and each segment that arrives alone costs the peer a read, so two
 * frames in one write save a system call on each side (about 5 us each on the hosts measured).
 *
 * <p>Used under the lane's write lock; {@link #take} and {@link #settle} also under the monitor of
 * the lane's {@link LaneQueues}. Allocates nothing.
 */
final class FrameBatch {
    static final int MAX_FRAMES = 8;

    private final OutFrame[] frames = new OutFrame[MAX_FRAMES];
    private final boolean[] isData = new boolean[MAX_FRAMES];
    private final ByteBuffer[] parts = new ByteBuffer[2 * MAX_FRAMES];
    private int count;
    private int partCount;
    private boolean partialData;

    /**
     * Takes the next frame, control before data as the lane sends them, and the frames queued behind it
     * while they qualify; returns how many (0: nothing queued). A batch of one is written alone ({@link #first}).
     */
    int take(ArrayDeque<OutFrame> control, ArrayDeque<OutFrame> data) {
        count = 0;
        partCount = 0;
        while (count < MAX_FRAMES) {
            ArrayDeque<OutFrame> q = !control.isEmpty() ? control : data;
            OutFrame next = q.peekFirst();
            if (next == null) break;
            q.pollFirst();
            add(next, q == data);
            if (!next.ownBuffers()) break;
        }
        return count;
    }

    /** The first frame taken, and whether it is data; for a batch of one, which is then cleared. */
    OutFrame first() {
        OutFrame f = frames[0];
        partialData = isData[0];
        clear();
        return f;
    }

    private void add(OutFrame f, boolean data) {
        frames[count] = f;
        isData[count] = data;
        partCount += f.parts(parts, partCount);
        count++;
    }

    /** One gathering write of what the non-blocking channel accepts now; returns the bytes written. */
    long writeTo(SocketChannel channel) throws IOException {
        long n = channel.write(parts, 0, partCount);
        OutFrame.written(n);
        return n;
    }

    /**
     * After {@link #writeTo}: hands each wholly written frame to {@code done} in order and returns the
     * first frame not wholly written (to be finished alone), or null; the frames after it, untouched,
     * go back to the front of their queues in their order.
     */
    OutFrame settle(Done done, ArrayDeque<OutFrame> control, ArrayDeque<OutFrame> data) {
        int i = 0;
        while (i < count && frames[i].remaining() == 0) {
            OutFrame.sent(true);
            done.written(frames[i], isData[i]);
            i++;
        }
        OutFrame partial = i < count ? frames[i] : null;
        partialData = partial != null && isData[i];
        for (int j = count - 1; j > i; j--) (isData[j] ? data : control).addFirst(frames[j]);
        clear();
        return partial;
    }

    /** Whether the frame the last {@link #settle} or {@link #first} returned is a data frame. */
    boolean partialIsData() {
        return partialData;
    }

    private void clear() {
        for (int i = 0; i < count; i++) frames[i] = null;
        for (int i = 0; i < partCount; i++) parts[i] = null;
        count = 0;
        partCount = 0;
    }

    /** A frame of the batch that left whole. */
    interface Done {
        void written(OutFrame frame, boolean isData);
    }
}
