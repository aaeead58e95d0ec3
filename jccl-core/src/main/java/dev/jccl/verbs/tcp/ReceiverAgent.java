package dev.jccl.verbs.tcp;

import java.io.EOFException;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The thread that reads one inbound socket (one the peer opened to our listener): a header, checked
 * before anything else is read, then its payload straight into the memory the frame targets, with no
 * intermediate buffer. Payload that must not land (refused request, queue pair in ERR) is read into a
 * scratch buffer and dropped, so the stream stays in step.
 *
 * <p>The socket is blocking, so the thread sleeps in the kernel until bytes arrive and wakes as soon
 * as they do. It starts reading only once its queue pair is RTR, as an RC responder ignores traffic
 * before then. End of stream or a socket error moves the queue pair to ERR; a malformed frame does
 * too, before any of its bytes reach memory.
 */
final class ReceiverAgent {
    /** What the receiver reports to; implemented by the queue pair. */
    interface Sink {
        /** Waits (bounded) until frames may be processed; false when the queue pair will not get there. */
        boolean awaitReady();

        void onFrame(FrameCodec header, ReceiverAgent in) throws IOException;

        void receiverFailed(ReceiverAgent in, IOException cause);
    }

    private static final int SCRATCH_BYTES = 64 * 1024;

    final String peer;
    final int lane;
    private final SocketChannel channel;
    private final Sink sink;
    private final FrameCodec codec = new FrameCodec(FrameCodec.allocateHeader());
    private final Thread thread;
    private ByteBuffer scratch;
    private volatile boolean closed;

    ReceiverAgent(SocketChannel channel, String peer, int lane, Sink sink, String threadName) {
        this.channel = channel;
        this.peer = peer;
        this.lane = lane;
        this.sink = sink;
        this.thread = Thread.ofPlatform().daemon().name(threadName).unstarted(this::run);
    }

    void start() {
        thread.start();
    }

    private void run() {
        try {
            if (!sink.awaitReady()) return;
            ByteBuffer header = codec.buffer();
            while (!closed) {
                header.clear();
                if (!readFully(header, true)) {
                    throw new EOFException("peer " + peer + " closed the connection (lane " + lane + ")");
                }
                codec.validate();
                sink.onFrame(codec, this);
            }
        } catch (ClosedChannelException e) {
            if (!closed) sink.receiverFailed(this, new EOFException("lane " + lane + " from " + peer + " was closed"));
        } catch (IOException e) {
            if (!closed) sink.receiverFailed(this, e);
        } catch (RuntimeException e) {
            if (!closed) sink.receiverFailed(this, new IOException("receiver of lane " + lane + " failed: " + e, e));
        }
    }

    /** Reads {@code length} payload bytes into {@code target}, or drops them when it is null. */
    void readPayload(MemorySegment target, int length) throws IOException {
        if (length == 0) return;
        if (target == null) {
            discard(length);
            return;
        }
        readFully(target.asByteBuffer(), false);
    }

    /** Reads a NAK's explanation. */
    String readDetail(int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length);
        readFully(b, false);
        return new String(b.array(), 0, length, StandardCharsets.UTF_8);
    }

    private void discard(int length) throws IOException {
        if (scratch == null) scratch = ByteBuffer.allocateDirect(SCRATCH_BYTES);
        int left = length;
        while (left > 0) {
            scratch.clear().limit(Math.min(left, SCRATCH_BYTES));
            readFully(scratch, false);
            left -= scratch.limit();
        }
    }

    /** Returns false on end of stream before the first byte when {@code atFrameStart}; EOF elsewhere throws. */
    private boolean readFully(ByteBuffer b, boolean atFrameStart) throws IOException {
        while (b.hasRemaining()) {
            if (channel.read(b) < 0) {
                if (atFrameStart && b.position() == 0) return false;
                throw new EOFException("peer " + peer + " closed lane " + lane + " in the middle of a frame");
            }
        }
        return true;
    }

    /** Closes the socket, which ends a blocked read, and joins the thread (bounded). */
    void close() {
        closed = true;
        try {
            channel.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        if (Thread.currentThread() != thread && thread.isAlive()) {
            try {
                thread.join(TimeUnit.SECONDS.toMillis(5));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
