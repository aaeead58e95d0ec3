package dev.jccl.verbs;

import java.nio.ByteBuffer;

/**
 * A peer's registered region as exchanged through the bootstrap store: address, length, rkey.
 * Encodes to 20 bytes, big-endian.
 */
public record RemoteBuffer(long address, long length, int rkey) {
    public static final int ENCODED_BYTES = 20;

    public byte[] encode() {
        return ByteBuffer.allocate(ENCODED_BYTES).putLong(address).putLong(length).putInt(rkey).array();
    }

    public static RemoteBuffer decode(byte[] bytes) {
        if (bytes.length != ENCODED_BYTES) {
            throw new IllegalArgumentException("remote buffer needs " + ENCODED_BYTES + " bytes, got " + bytes.length);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        long addr = b.getLong();
        long len = b.getLong();
        if (len < 0) throw new IllegalArgumentException("remote buffer has negative length " + len);
        return new RemoteBuffer(addr, len, b.getInt());
    }

    /** Address of byte {@code offset} inside this buffer. */
    public long at(long offset) {
        return address + offset;
    }
}
