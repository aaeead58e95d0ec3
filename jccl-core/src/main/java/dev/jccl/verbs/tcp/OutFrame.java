package dev.jccl.verbs.tcp;

import dev.jccl.trace.DataPathCounters;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A frame waiting in an {@link OutboundLane}: its header and, for data frames, its payload. Pooled
 * by the lane, and built so that a steady stream of frames allocates nothing:
 *
 * <ul>
 *   <li>A payload of at most {@link #GATHER_MAX_BYTES} is copied into this frame's own buffer and
 *       leaves with the header in one gathering write: the copy costs less than a second system call,
 *       and buffers of the frame's own carry no memory session, which the JDK would otherwise pin with
 *       a new object on every gathering write.</li>
 *   <li>A larger payload is not copied: the frame writes it from a buffer over the whole registered
 *       segment it lies in, remembered per frame for the last {@link #VIEWS} segments and repositioned
 *       for each use, header and payload in two writes.</li>
 * </ul>
 *
 * <p>Why 64 KiB, the largest message lane 0 carries: over loopback the header written alone leaves as
 * a segment of its own, which costs the peer a read and a wake-up before the payload's. 2 ranks, three
 * interleaved rounds, median µs per allreduce, copying up to 8 KiB / up to 64 KiB (Open MPI's tcp BTL):
 * 16 KiB 48.1/36.1 (36.9), 32 KiB 51.9/43.7 (37.0), 64 KiB 64.2/59.9 (58.0); a gathering write of the
 * header and a view instead, which allocates, gave the same (16 KiB 34.5, 32 KiB 35.3). Copying up to
 * 256 KiB did not help past 64 KiB, and those messages go on the bulk lanes.
 */
final class OutFrame {
    /** The provider's "max inline data": a payload this small is always copied when posted (see {@link Requester}). */
    static final int COPY_MAX_BYTES = 8 * 1024;
    /** The largest payload copied into the frame to leave with its header in one write. */
    static final int GATHER_MAX_BYTES = 64 * 1024;
    private static final int VIEWS = 2;

    final FrameCodec codec = new FrameCodec(FrameCodec.allocateHeader());
    private final ByteBuffer[] parts = new ByteBuffer[2];
    private final MemorySegment[] viewOf = new MemorySegment[VIEWS];
    private final ByteBuffer[] views = new ByteBuffer[VIEWS];
    private int nextView;
    private ByteBuffer copied; // this frame's own payload buffer, made on first use
    private MemorySegment copiedSegment;
    private ByteBuffer payload;
    private boolean gather; // header and payload in one gathering write

    /** A payload from elsewhere (a NAK's text); written with the header in one gathering write. */
    OutFrame payload(ByteBuffer view) {
        this.payload = view;
        this.gather = true;
        return this;
    }

    /** The payload: {@code length} bytes at {@code offset} in {@code source} (see the class comment). */
    OutFrame payload(MemorySegment source, long offset, int length) {
        if (length <= GATHER_MAX_BYTES) {
            if (copied == null || copied.capacity() < length) { // most frames carry small payloads: two sizes, each made once
                copied = ByteBuffer.allocateDirect(length <= COPY_MAX_BYTES ? COPY_MAX_BYTES : GATHER_MAX_BYTES);
                copiedSegment = MemorySegment.ofBuffer(copied);
            }
            MemorySegment.copy(source, offset, copiedSegment, 0, length);
            DataPathCounters.add(DataPathCounters.Counter.PROVIDER_COPY_BYTES, length);
            copied.limit(length).position(0);
            payload = copied;
            gather = true;
        } else {
            payload = view(source, offset, length);
            gather = false;
        }
        return this;
    }

    private ByteBuffer view(MemorySegment source, long offset, int length) {
        if (source.byteSize() > Integer.MAX_VALUE) return source.asSlice(offset, length).asByteBuffer();
        int way = -1;
        for (int i = 0; i < VIEWS; i++) if (viewOf[i] == source) way = i;
        if (way < 0) {
            way = nextView;
            nextView = (nextView + 1) % VIEWS;
            viewOf[way] = source;
            views[way] = source.asByteBuffer();
        }
        ByteBuffer v = views[way];
        v.limit((int) (offset + length)).position((int) offset);
        return v;
    }

    /** Whether every byte of this frame lies in its own buffers (header, copied payload), so it may join a {@link FrameBatch}. */
    boolean ownBuffers() {
        return payload == null || gather;
    }

    /**
     * Puts this frame's own buffers into {@code into} from {@code at}: the header, then the payload if it is
     * copied here (a view of registered memory is written apart, see the class comment); returns how many.
     */
    int parts(ByteBuffer[] into, int at) {
        into[at] = codec.buffer();
        if (payload == null || !gather) return 1;
        into[at + 1] = payload;
        return 2;
    }

    /** Bytes of this frame not yet written. */
    long remaining() {
        return codec.buffer().remaining() + (payload == null ? 0 : payload.remaining());
    }

    /** Writes what the non-blocking channel accepts now; true once the whole frame is out. */
    boolean writeTo(SocketChannel channel) throws IOException {
        ByteBuffer header = codec.buffer();
        if (payload == null || (!gather && header.hasRemaining())) {
            written(channel.write(header));
            if (payload == null || header.hasRemaining()) return payload == null && sent(!header.hasRemaining());
        }
        if (gather) {
            parts[0] = header;
            parts[1] = payload;
            written(channel.write(parts));
            return sent(!header.hasRemaining() && !payload.hasRemaining());
        }
        written(channel.write(payload));
        return sent(!payload.hasRemaining());
    }

    static void written(long bytes) {
        DataPathCounters.add(DataPathCounters.Counter.SYSCALLS, 1);
        DataPathCounters.add(DataPathCounters.Counter.SOCKET_BYTES_WRITTEN, bytes);
    }

    static boolean sent(boolean whole) {
        if (whole) DataPathCounters.add(DataPathCounters.Counter.FRAMES_SENT, 1);
        return whole;
    }

    void clear() {
        payload = null;
        parts[1] = null;
    }
}
