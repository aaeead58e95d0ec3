package dev.jccl.verbs.tcp;

import dev.jccl.trace.DataPathCounters;
import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

import static dev.jccl.verbs.tcp.FrameDescriptor.HEADER_BYTES;

/**
 * The reading side of one inbound socket, as a state machine that never blocks: {@link #pump} takes
 * what the socket holds now and advances frame by frame (header, begin, payload, end), so whichever
 * thread holds the owner's lock can drive it, a receiver thread or a consumer polling its CQ.
 *
 * <p>Bytes come through a staging buffer, so one read usually brings a header together with a small
 * payload, or several small frames at once. A payload the staging buffer does not already hold is read
 * straight into its target memory when it is large; and after a large payload the next read asks for
 * just a header, as another large payload likely follows, so bulk data is copied only by the kernel. A
 * header is checked before anything of its frame is used; nothing of a malformed frame reaches memory.
 *
 * <p>Light mode. A consumer pumps in light mode: it takes every frame, whole chunks of up to 1 MiB
 * included, and stops, leaving the frame untouched, only at one that must wait for a receive
 * ({@link #HEAVY}); the receiver thread then takes over. Handing a frame to that thread costs a
 * wake-up on the critical path, and on a host whose cores the ranks' callers keep busy the thread
 * also waits for a core: a 64 KiB allreduce over tcp took 214 µs when consumers took payloads up to
 * 16 KiB and 66 µs up to 256 KiB; up to 256 KiB, a 1 MiB allreduce (two 512 KiB chunks) took
 * 1.4-2.6 ms and a 4 MiB one 6.0-8.7 ms, against 0.6-1.2 ms and 2.8-7.6 ms taking every chunk
 * (2 ranks, two rounds each, interleaved; Open MPI's tcp BTL 0.4-1.1 and 2.2-4.2 ms). Not
 * thread-safe: the owner serializes.
 */
final class InboundStream {
    /** Frames are handed to it; implemented by the queue pair. */
    interface Handler {
        /**
         * A checked header. {@code firstTriedNs} is 0 the first time, else when the first attempt was.
         * Returns the memory its payload goes to, {@link #DISCARD}, or {@link #STALL} to be asked again;
         * the payload lands from byte {@code at.offset} of that memory (0 unless the handler sets it),
         * so a handler can name a place inside a whole region without making a view of it.
         */
        MemorySegment begin(FrameCodec header, long firstTriedNs, Landing at) throws IOException;

        /** The payload of the frame begun last landed in {@code payload} (or was dropped). */
        void end(FrameCodec header, MemorySegment payload) throws IOException;

        /** A frame stalled on a receive began ({@code true}: only the receiver thread goes on) or ended. */
        void heavy(boolean heavy);
    }

    /** Where in the memory {@link Handler#begin} returns the payload starts; one per stream, reused. */
    static final class Landing {
        long offset;
    }

    /** Target of a payload that must not land anywhere (also for frames without payload). */
    static final MemorySegment DISCARD = MemorySegment.NULL;
    /** Returned by {@link Handler#begin} when the frame cannot be taken yet. */
    static final MemorySegment STALL = MemorySegment.ofArray(new byte[0]);

    /** Everything available was taken; more bytes are needed. */
    static final int NEED_DATA = 0;
    /** Light mode met a frame stalled on a receive: the receiver thread must go on. */
    static final int HEAVY = 1;
    /** The current frame waits for a receive to be posted (full mode). */
    static final int STALLED = 2;
    /** {@link #PASS_BYTES} of payload were taken in this call; more may be waiting. */
    static final int PASSED = 3;

    /**
     * Payload one call takes at most before it returns, so its caller can send the acknowledgements
     * owed so far while the peer keeps streaming (a sender's window must not wait for a drained socket).
     */
    static final long PASS_BYTES = 1 << 20;

    private static final int STAGING_BYTES = 64 * 1024;
    /**
     * A payload still missing this many bytes is read straight into its memory. Below it, one read
     * brings the header and the payload into staging and the payload is copied out: at 4 KiB (an
     * 8 KiB allreduce's chunks between 2 ranks) a read of the header alone and one of the payload
     * cost a system call more per frame than copying 4 KiB does.
     */
    private static final int DIRECT_READ_BYTES = 16 * 1024;
    private static final int HEADER = 0, BEGIN = 1, PAYLOAD = 2;

    final String peer;
    final int lane;
    private final SocketChannel channel;
    private final Handler handler;
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING_BYTES);
    private final MemorySegment stagingSegment = MemorySegment.ofBuffer(staging);
    private final FrameCodec codec = new FrameCodec(FrameCodec.allocateHeader());
    private final MemorySegment headerSegment = MemorySegment.ofBuffer(codec.buffer());
    private int readPos;  // staged bytes are [readPos, writePos)
    private int writePos;
    private boolean drained; // the last read left room in its buffer: the socket held no more then
    private boolean expectLarge; // the last payload was large: read the next header alone
    private int phase = HEADER;
    private long firstTriedNs;
    private MemorySegment target;
    private final Landing landing = new Landing();
    private long targetOffset;
    /** A buffer over the whole of {@link #viewOf}, repositioned for each direct read (none over 2 GiB). */
    private ByteBuffer view;
    private MemorySegment viewOf;
    private int payloadDone;
    private long frames;
    private long lastBytesNs = System.nanoTime();

    InboundStream(SocketChannel channel, String peer, int lane, Handler handler) {
        this.channel = channel;
        this.peer = peer;
        this.lane = lane;
        this.handler = handler;
    }

    SocketChannel channel() {
        return channel;
    }

    /** When bytes last came in (data or the peer's heartbeat); the caller holds the stream's lock. */
    long lastBytesNs() {
        return lastBytesNs;
    }

    /** Starts the silence clock afresh, when reading begins. */
    void heardNow() {
        lastBytesNs = System.nanoTime();
    }

    /** Frames completed so far. */
    long frames() {
        return frames;
    }

    /** Whether a consumer may go on from here: between frames, or inside a payload (not at a stalled frame). */
    boolean light() {
        return phase == HEADER || phase == PAYLOAD;
    }

    /** Advances as far as the socket's bytes allow; see the class comment for {@code light}. */
    int pump(boolean light) throws IOException {
        long payloadTaken = 0;
        while (true) {
            if (phase == HEADER && payloadTaken >= PASS_BYTES) return PASSED;
            if (phase == HEADER) {
                if (writePos - readPos < HEADER_BYTES) {
                    int want = expectLarge ? HEADER_BYTES - (writePos - readPos) : STAGING_BYTES;
                    if (drained || fill(want) == 0) { // a short read emptied the socket: do not ask it again
                        drained = false;
                        return NEED_DATA;
                    }
                    continue;
                }
                MemorySegment.copy(stagingSegment, readPos, headerSegment, 0, HEADER_BYTES);
                codec.validate();
                readPos += HEADER_BYTES;
                phase = BEGIN;
                firstTriedNs = 0;
            }
            if (phase == BEGIN) {
                landing.offset = 0;
                MemorySegment t = handler.begin(codec, firstTriedNs, landing);
                if (t == STALL) {
                    if (firstTriedNs == 0) {
                        firstTriedNs = Math.max(1, System.nanoTime());
                        handler.heavy(true);
                    }
                    return light ? HEAVY : STALLED;
                }
                target = t;
                targetOffset = landing.offset;
                payloadDone = 0;
                phase = PAYLOAD;
            }
            int left = codec.chunkLength() - payloadDone;
            if (left > 0) {
                if (readPayload(left) == 0) return NEED_DATA;
                continue;
            }
            MemorySegment landed = target;
            target = null;
            phase = HEADER;
            frames++;
            DataPathCounters.add(DataPathCounters.Counter.FRAMES_RECEIVED, 1);
            payloadTaken += codec.chunkLength();
            expectLarge = codec.chunkLength() >= DIRECT_READ_BYTES;
            handler.end(codec, landed);
            if (firstTriedNs != 0) handler.heavy(false);
        }
    }

    /** Moves payload bytes towards the target; returns 0 when the socket has none now. */
    private int readPayload(int left) throws IOException {
        int staged = writePos - readPos;
        if (staged > 0) {
            int take = Math.min(left, staged);
            if (target != DISCARD) {
                MemorySegment.copy(stagingSegment, readPos, target, targetOffset + payloadDone, take);
                DataPathCounters.add(DataPathCounters.Counter.PROVIDER_COPY_BYTES, take);
            }
            readPos += take;
            payloadDone += take;
            return take;
        }
        if (target != DISCARD && left >= DIRECT_READ_BYTES) {
            int n = channel.read(directView(targetOffset + payloadDone, left));
            if (n < 0) throw endOfStream();
            if (n > 0) lastBytesNs = System.nanoTime();
            read(n);
            payloadDone += n;
            drained = n < left;
            return n;
        }
        return fill(STAGING_BYTES);
    }

    /**
     * A buffer over {@code [offset, +length)} of the target for a direct read: the stream's one view
     * of the target's memory, made when the target changes (frames of a stream usually land in the
     * same region), so a steady stream of large frames allocates nothing.
     */
    private ByteBuffer directView(long offset, int length) {
        if (target.byteSize() > Integer.MAX_VALUE) return target.asSlice(offset, length).asByteBuffer();
        if (viewOf != target) {
            view = target.asByteBuffer();
            viewOf = target;
        }
        view.limit((int) (offset + length)).position((int) offset);
        return view;
    }

    /** Reads at most {@code maxBytes} into the staging buffer; returns the bytes read (0: none now). */
    private int fill(int maxBytes) throws IOException {
        if (readPos == writePos) {
            readPos = writePos = 0;
        } else if (STAGING_BYTES - writePos < STAGING_BYTES / 2) {
            MemorySegment.copy(stagingSegment, readPos, stagingSegment, 0, writePos - readPos);
            writePos -= readPos;
            readPos = 0;
        }
        staging.limit((int) Math.min(STAGING_BYTES, (long) writePos + maxBytes)).position(writePos);
        int n = channel.read(staging);
        if (n < 0) throw endOfStream();
        if (n > 0) lastBytesNs = System.nanoTime();
        read(n);
        drained = staging.hasRemaining();
        writePos += n;
        return n;
    }

    private EOFException endOfStream() {
        boolean between = phase == HEADER && readPos == writePos;
        return new EOFException(between ? "peer " + peer + " closed the connection (lane " + lane + ")"
                : "peer " + peer + " closed lane " + lane + " in the middle of a frame");
    }

    private static void read(int bytes) {
        DataPathCounters.add(DataPathCounters.Counter.SYSCALLS, 1);
        DataPathCounters.add(DataPathCounters.Counter.SOCKET_BYTES_READ, bytes);
    }
}
