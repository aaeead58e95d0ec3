package dev.jccl.verbs.tcp;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The message a connecting side sends right after the authentication handshake: which queue pair it
 * wants, which of its sockets this is, and what the responder must know to check its frames. The
 * listener answers with one UTF string: empty when accepted, otherwise why not; for an accepted shared
 * socket it then sends its queue pair's window (i32), which the connecting side's responder checks
 * the frames coming back against. A probe asks only whether the queue pair is still there to open the
 * shared sockets (its verdict says so), and the socket is closed after the verdict.
 *
 * <pre>
 *   magic      i32  "JTC2": names the frame format too, so a peer speaking another one is refused
 *   targetQpn  i32  queue pair on the listening context
 *   sourceQpn  i32  the connecting queue pair
 *   lane       i32  index of this socket, [0, laneCount)
 *   laneCount  i32  how many sockets the connecting side opens (JCCL_QPS_PER_CONNECTION)
 *   window     i32  its send queue depth: how many messages it may have in flight
 *   psn        i32  sequence number of its first message
 *   mode       i32  0 (SPLIT): the socket carries this side's frames only; 1 (SHARED): both directions
 *                   (JCCL_TCP_SHARED_SOCKETS); 2 (PROBE): no lane, a question (see above)
 * </pre>
 */
final class HelloDescriptor {
    private HelloDescriptor() {}

    static final int MAGIC = 0x4A544333; // "JTC3"
    static final int MAGIC_OFFSET = 0;
    static final int TARGET_QPN_OFFSET = MAGIC_OFFSET + Integer.BYTES;
    static final int SOURCE_QPN_OFFSET = TARGET_QPN_OFFSET + Integer.BYTES;
    static final int LANE_OFFSET = SOURCE_QPN_OFFSET + Integer.BYTES;
    static final int LANE_COUNT_OFFSET = LANE_OFFSET + Integer.BYTES;
    static final int WINDOW_OFFSET = LANE_COUNT_OFFSET + Integer.BYTES;
    static final int PSN_OFFSET = WINDOW_OFFSET + Integer.BYTES;
    static final int MODE_OFFSET = PSN_OFFSET + Integer.BYTES;
    static final int BYTES = MODE_OFFSET + Integer.BYTES;
    static final int SPLIT = 0, SHARED = 1, PROBE = 2;
    static final int MAX_LANES = 64;

    record Hello(int targetQpn, int sourceQpn, int lane, int laneCount, int window, int psn, int mode) {
        boolean shared() {
            return mode == SHARED;
        }

        boolean probe() {
            return mode == PROBE;
        }
    }

    static void write(DataOutputStream out, Hello h) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(BYTES).order(FrameDescriptor.ORDER);
        b.putInt(MAGIC_OFFSET, MAGIC).putInt(TARGET_QPN_OFFSET, h.targetQpn()).putInt(SOURCE_QPN_OFFSET, h.sourceQpn())
                .putInt(LANE_OFFSET, h.lane()).putInt(LANE_COUNT_OFFSET, h.laneCount())
                .putInt(WINDOW_OFFSET, h.window()).putInt(PSN_OFFSET, h.psn()).putInt(MODE_OFFSET, h.mode());
        out.write(b.array());
        out.flush();
    }

    /** Reads and checks every field; a violation names the field and its value. */
    static Hello read(DataInputStream in) throws IOException {
        byte[] raw = new byte[BYTES];
        in.readFully(raw);
        ByteBuffer b = ByteBuffer.wrap(raw).order(FrameDescriptor.ORDER);
        if (b.getInt(MAGIC_OFFSET) != MAGIC) {
            throw new MalformedFrameException(String.format("hello has magic 0x%08x, expected 0x%08x", b.getInt(MAGIC_OFFSET), MAGIC));
        }
        int mode = b.getInt(MODE_OFFSET);
        if (mode < SPLIT || mode > PROBE) throw new MalformedFrameException("hello mode " + mode + " outside [" + SPLIT + ", " + PROBE + "]");
        Hello h = new Hello(b.getInt(TARGET_QPN_OFFSET), b.getInt(SOURCE_QPN_OFFSET), b.getInt(LANE_OFFSET),
                b.getInt(LANE_COUNT_OFFSET), b.getInt(WINDOW_OFFSET), b.getInt(PSN_OFFSET), mode);
        if (h.laneCount() < 1 || h.laneCount() > MAX_LANES) {
            throw new MalformedFrameException("hello laneCount " + h.laneCount() + " outside [1, " + MAX_LANES + "]");
        }
        if (h.lane() < 0 || h.lane() >= h.laneCount()) throw new MalformedFrameException("hello lane " + h.lane() + " outside [0, " + h.laneCount() + ")");
        checkWindow("hello window", h.window());
        if (h.psn() < 0 || h.targetQpn() < 0 || h.sourceQpn() < 0) throw new MalformedFrameException("hello has a negative field: " + h);
        return h;
    }

    /** A window a peer announced, in the hello or after the verdict. */
    static void checkWindow(String what, int window) throws MalformedFrameException {
        if (window < 1 || window > FrameDescriptor.MAX_WINDOW) {
            throw new MalformedFrameException(what + " " + window + " outside [1, " + FrameDescriptor.MAX_WINDOW + "]");
        }
    }
}
