package dev.jccl.verbs.tcp;

import dev.jccl.fuzz.Mutator;
import dev.jccl.verbs.MemoryRegion;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import static dev.jccl.verbs.tcp.FrameDescriptor.*;

/**
 * Plausible frame streams for a {@link FuzzBench} (requests within its regions and receives, replies to
 * its READ and SEND, in sequence), and the ways a hostile peer breaks them: a header field set to an
 * extreme value, a frame cut short, noise, a frame repeated or two swapped; and the frames a sender
 * wrote, read back off the wire.
 */
final class TcpFrames {
    private static final int[] FIELDS = {TYPE_OFFSET, STATUS_OFFSET, RESERVED_OFFSET, CHUNK_LENGTH_OFFSET, SEQ_OFFSET,
        MSG_LENGTH_OFFSET, CHUNK_OFFSET_OFFSET, REMOTE_ADDRESS_OFFSET, RKEY_OFFSET, IMM_OFFSET, RECV_INDEX_OFFSET, ACK_OFFSET};

    private TcpFrames() {}

    /** For a bench: its regions, its peer's first PSN, its READ in flight. */
    static List<byte[]> plausible(SplittableRandom r, FuzzBench b) {
        return plausible(r, b.regions, FuzzBench.PEER_PSN, FuzzBench.OWN_PSN, FuzzBench.READ_BYTES);
    }

    /**
     * 1 to 6 messages, each in 1 to 3 chunks; one byte[] per frame, header and payload. Requests start at
     * {@code peerPsn} and aim inside {@code regions} (the third takes the READs); replies answer requests
     * from {@code ownPsn} on, the first a READ of {@code readBytes}.
     */
    static List<byte[]> plausible(SplittableRandom r, List<? extends MemoryRegion> regions, long peerPsn, long ownPsn, long readBytes) {
        List<byte[]> frames = new ArrayList<>();
        long seq = peerPsn;
        long recvIndex = 0;
        boolean replied = false; // one reply per stream: a second could refer to a request the first completed
        for (int m = 1 + r.nextInt(6); m > 0; m--) {
            int kind = r.nextInt(7);
            if (kind >= 5 && replied) kind = r.nextInt(5);
            replied |= kind >= 5;
            MemoryRegion region = regions.get(kind == 3 ? 2 : r.nextInt(regions.size()));
            long off = r.nextLong(region.length() + 1);
            long len = Math.min(r.nextLong(region.length() - off + 1), 1 << 16);
            long ack = r.nextInt(3) == 0 ? ownPsn - 1 : NO_ACK;
            switch (kind) {
                case 0, 1 -> message(r, frames, TYPE_WRITE, seq++, len, region.address() + off, region.rkey(), 0, ack);
                case 2 -> message(r, frames, TYPE_WRITE_IMM, seq++, len, region.address() + off, region.rkey(), recvIndex++, ack);
                case 3 -> frames.add(frame(r, TYPE_READ_REQUEST, (byte) 0, 0, seq++, len, 0, region.address() + off, region.rkey(), 0, ack));
                case 4 -> message(r, frames, TYPE_SEND, seq++, r.nextInt(8 * 1024), 0, 0, recvIndex++, ack);
                case 5 -> frames.add(frame(r, TYPE_ACK, (byte) 0, 0, ownPsn - 1 + r.nextInt(3), 0, 0, 0, 0, 0, NO_ACK));
                default -> {
                    if (r.nextBoolean()) {
                        message(r, frames, TYPE_READ_RESPONSE, ownPsn, readBytes, 0, 0, 0, NO_ACK);
                    } else {
                        frames.add(frame(r, TYPE_NAK, (byte) (1 + r.nextInt(3)), r.nextInt(64), ownPsn + r.nextInt(2), 0, 0, 0, 0,
                                0, NO_ACK));
                    }
                }
            }
        }
        return frames;
    }

    private static void message(SplittableRandom r, List<byte[]> out, byte type, long seq, long msgLength, long address, int rkey,
                                long recvIndex, long ack) {
        long offset = 0;
        do {
            long chunk = msgLength == 0 ? 0 : Math.min(msgLength - offset, 1 + r.nextLong(msgLength));
            out.add(frame(r, type, (byte) 0, (int) chunk, seq, msgLength, offset, address, rkey, recvIndex, offset == 0 ? ack : NO_ACK));
            offset += chunk;
        } while (offset < msgLength);
    }

    static byte[] frame(SplittableRandom r, byte type, byte status, int chunk, long seq, long msgLength, long chunkOffset, long address,
                        int rkey, long recvIndex, long ack) {
        ByteBuffer buf = ByteBuffer.allocate(HEADER_BYTES + chunk).order(ORDER);
        new FrameCodec(buf).encode(type, status, chunk, seq, msgLength, chunkOffset, address, rkey, 7, recvIndex).ack(ack);
        byte[] b = buf.array();
        for (int i = HEADER_BYTES; i < b.length; i++) b[i] = (byte) (0x40 + (i & 0x3F)); // never the guard pattern
        return b;
    }

    /** Breaks the stream in one or two ways; returns the frames as they go on the wire. */
    static byte[] corrupt(Mutator m, List<byte[]> frames) {
        SplittableRandom r = m.random();
        List<byte[]> f = new ArrayList<>(frames);
        for (int round = 1 + r.nextInt(2); round > 0; round--) {
            int i = r.nextInt(f.size());
            switch (r.nextInt(6)) {
                case 0, 1 -> f.set(i, withField(m, f.get(i))); // one header field out of range, the rest plausible
                case 2 -> f.set(i, m.mutate(f.get(i)));          // bytes anywhere
                case 3 -> f.add(i, m.noise(1 + r.nextInt(HEADER_BYTES * 2)));
                case 4 -> f.add(i, f.get(i));                    // a frame repeated: a PSN seen twice
                default -> Collections.swap(f, i, r.nextInt(f.size())); // out of order
            }
        }
        byte[] wire = concat(f);
        // Sometimes the peer stops in the middle of a frame.
        return r.nextInt(4) == 0 ? java.util.Arrays.copyOf(wire, r.nextInt(wire.length + 1)) : wire;
    }

    private static byte[] withField(Mutator m, byte[] frame) {
        if (frame.length < HEADER_BYTES) return m.mutate(frame); // already noise
        byte[] b = frame.clone();
        ByteBuffer h = ByteBuffer.wrap(b).order(ORDER);
        int field = FIELDS[m.random().nextInt(FIELDS.length)];
        long v = m.extreme();
        switch (field) {
            case TYPE_OFFSET, STATUS_OFFSET -> h.put(field, (byte) v);
            case RESERVED_OFFSET -> h.putShort(field, (short) (v == 0 ? 1 : v));
            case CHUNK_LENGTH_OFFSET, RKEY_OFFSET, IMM_OFFSET -> h.putInt(field, (int) v);
            default -> h.putLong(field, v);
        }
        return b;
    }

    static byte[] concat(List<byte[]> frames) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] f : frames) out.writeBytes(f);
        return out.toByteArray();
    }

    /**
     * The next frame's header on {@code wire} (non-blocking), its payload read and dropped, or null if
     * no frame began within {@code ms}.
     */
    static ByteBuffer nextHeader(SocketChannel wire, long ms) throws Exception {
        ByteBuffer h = ByteBuffer.allocate(HEADER_BYTES).order(ORDER);
        long end = System.nanoTime() + ms * 1_000_000;
        while (h.hasRemaining()) {
            if (wire.read(h) < 0) throw new AssertionError("stream closed");
            if (h.position() == 0 && System.nanoTime() > end) return null;
            if (h.position() == 0) Thread.sleep(1);
        }
        ByteBuffer payload = ByteBuffer.allocate(h.getInt(CHUNK_LENGTH_OFFSET));
        while (payload.hasRemaining()) if (wire.read(payload) < 0) throw new AssertionError("stream closed");
        return h;
    }
}
