package dev.jccl.verbs.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A frame waiting in an {@link OutboundLane}: its header and, for data frames, a view of the
 * registered memory the payload comes from (no copy is made; the channel reads the region itself).
 * Pooled by the lane, so the hot path allocates only the payload view.
 */
final class OutFrame {
    final FrameCodec codec = new FrameCodec(FrameCodec.allocateHeader());
    private final ByteBuffer[] parts = new ByteBuffer[2];
    private ByteBuffer payload;

    OutFrame payload(ByteBuffer view) {
        this.payload = view;
        return this;
    }

    /** Bytes of this frame not yet written. */
    long remaining() {
        return codec.buffer().remaining() + (payload == null ? 0 : payload.remaining());
    }

    /** Writes what the non-blocking channel accepts now; true once the whole frame is out. */
    boolean writeTo(SocketChannel channel) throws IOException {
        ByteBuffer header = codec.buffer();
        if (payload == null) {
            channel.write(header);
            return !header.hasRemaining();
        }
        parts[0] = header;
        parts[1] = payload;
        channel.write(parts);
        return !header.hasRemaining() && !payload.hasRemaining();
    }

    void clear() {
        payload = null;
        parts[1] = null;
    }
}
