package dev.jccl.verbs.tcp;

import java.nio.ByteBuffer;

import static dev.jccl.verbs.tcp.FrameDescriptor.*;

/**
 * A view over one frame header (layout in {@link FrameDescriptor}), for writing and for reading.
 * Reads are absolute, so the buffer's position is free for the channel I/O that fills or drains it.
 * Not thread-safe: each lane and each queued frame owns one.
 */
final class FrameCodec {
    private final ByteBuffer header;

    FrameCodec(ByteBuffer header) {
        if (header.capacity() < HEADER_BYTES || header.order() != ORDER) {
            throw new IllegalArgumentException("frame header buffer needs " + HEADER_BYTES + " bytes in " + ORDER);
        }
        this.header = header;
    }

    static ByteBuffer allocateHeader() {
        return ByteBuffer.allocateDirect(HEADER_BYTES).order(ORDER);
    }

    ByteBuffer buffer() {
        return header;
    }

    byte type() { return header.get(TYPE_OFFSET); }
    byte status() { return header.get(STATUS_OFFSET); }
    int chunkLength() { return header.getInt(CHUNK_LENGTH_OFFSET); }
    long seq() { return header.getLong(SEQ_OFFSET); }
    long msgLength() { return header.getLong(MSG_LENGTH_OFFSET); }
    long chunkOffset() { return header.getLong(CHUNK_OFFSET_OFFSET); }
    long remoteAddress() { return header.getLong(REMOTE_ADDRESS_OFFSET); }
    int rkey() { return header.getInt(RKEY_OFFSET); }
    int imm() { return header.getInt(IMM_OFFSET); }
    long recvIndex() { return header.getLong(RECV_INDEX_OFFSET); }
    long ack() { return header.getLong(ACK_OFFSET); }

    /** Lets the frame acknowledge every request of the other direction up to {@code seq} (or NO_ACK). */
    FrameCodec ack(long seq) {
        header.putLong(ACK_OFFSET, seq);
        return this;
    }

    /** Writes every field (ack: none) and leaves the buffer ready to be written to a channel. */
    FrameCodec encode(byte type, byte status, int chunkLength, long seq, long msgLength, long chunkOffset,
                      long remoteAddress, int rkey, int imm, long recvIndex) {
        header.clear();
        header.put(TYPE_OFFSET, type)
                .put(STATUS_OFFSET, status)
                .putShort(RESERVED_OFFSET, (short) 0)
                .putInt(CHUNK_LENGTH_OFFSET, chunkLength)
                .putLong(SEQ_OFFSET, seq)
                .putLong(MSG_LENGTH_OFFSET, msgLength)
                .putLong(CHUNK_OFFSET_OFFSET, chunkOffset)
                .putLong(REMOTE_ADDRESS_OFFSET, remoteAddress)
                .putInt(RKEY_OFFSET, rkey)
                .putInt(IMM_OFFSET, imm)
                .putLong(RECV_INDEX_OFFSET, recvIndex)
                .putLong(ACK_OFFSET, NO_ACK);
        header.limit(HEADER_BYTES);
        return this;
    }

    FrameCodec encodeAck(long seq) {
        return encode(TYPE_ACK, (byte) 0, 0, seq, 0, 0, 0, 0, 0, 0);
    }

    /** An ACK with {@link FrameDescriptor#ACK_HEARTBEAT}: seq 0, acknowledges nothing. */
    FrameCodec encodeHeartbeat() {
        return encode(TYPE_ACK, ACK_HEARTBEAT, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    FrameCodec encodeNak(long seq, byte status, int detailBytes) {
        return encode(TYPE_NAK, status, detailBytes, seq, detailBytes, 0, 0, 0, 0, 0);
    }

    /**
     * Checks what can be checked without connection state: known type, zero reserved bits, lengths
     * and offsets inside frame limits and inside their message. Throws naming the field and value.
     */
    void validate() throws MalformedFrameException {
        byte type = type();
        if (type < TYPE_SEND || type > TYPE_NAK) fail("unknown type " + typeName(type));
        if (header.getShort(RESERVED_OFFSET) != 0) fail("reserved bits set: " + header.getShort(RESERVED_OFFSET));
        int chunk = chunkLength();
        if (chunk < 0 || chunk > MAX_CHUNK_BYTES) fail("chunkLength " + chunk + " outside [0, " + MAX_CHUNK_BYTES + "]");
        if (seq() < 0) fail("negative seq " + seq());
        if (ack() < NO_ACK) fail("ack " + ack() + " below " + NO_ACK);
        switch (type) {
            case TYPE_SEND, TYPE_WRITE, TYPE_WRITE_IMM -> {
                checkChunkInMessage(chunk);
                checkRequestStatus();
            }
            case TYPE_READ_RESPONSE -> checkChunkInMessage(chunk);
            case TYPE_READ_REQUEST -> {
                checkRequestStatus();
                if (chunk != 0) fail("READ_REQUEST carries " + chunk + " payload bytes");
                if (msgLength() < 0) fail("negative READ length " + msgLength());
            }
            case TYPE_ACK -> {
                if (chunk != 0) fail("ACK carries " + chunk + " payload bytes");
            }
            default -> { // NAK
                if (chunk > MAX_DETAIL_BYTES) fail("NAK detail of " + chunk + " bytes exceeds " + MAX_DETAIL_BYTES);
                byte s = status();
                if (s < NAK_REMOTE_ACCESS || s > NAK_RECEIVE_TOO_SMALL) fail("unknown NAK status " + s);
            }
        }
        if ((type == TYPE_SEND || type == TYPE_WRITE_IMM) && recvIndex() < 0) fail("negative recvIndex " + recvIndex());
    }

    private void checkRequestStatus() throws MalformedFrameException {
        byte s = status();
        if (s != 0 && s != REQ_ACK_LAZY) fail("unknown request status " + s);
    }

    private void checkChunkInMessage(int chunk) throws MalformedFrameException {
        long msg = msgLength();
        long off = chunkOffset();
        if (msg < 0 || off < 0 || off > msg || chunk > msg - off) {
            fail("chunk [" + off + ", +" + chunk + ") outside its message of " + msg + " bytes");
        }
    }

    private void fail(String why) throws MalformedFrameException {
        throw new MalformedFrameException(typeName(type()) + " frame seq " + seq() + ": " + why);
    }
}
