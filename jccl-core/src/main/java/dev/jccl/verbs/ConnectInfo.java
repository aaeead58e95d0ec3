package dev.jccl.verbs;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What one side of an RC connection tells the other, through the bootstrap store, before RTR.
 *
 * @param provider provider name; connecting across providers is refused
 * @param qpn      queue pair number on the owner's context
 * @param lid      the LID analogue: identifies the owner's context (shm: a context id; tcp: 0)
 * @param gid      the GID analogue: how to reach the owner (shm: the context's control file;
 *                 tcp: "host:port" of its listener)
 * @param psn      initial packet sequence number; the peer expects the first message to carry it
 */
public record ConnectInfo(String provider, int qpn, long lid, String gid, int psn) {
    private static final int MAX_STRING = 4096;

    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(provider);
            out.writeInt(qpn);
            out.writeLong(lid);
            out.writeUTF(gid);
            out.writeInt(psn);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Decodes and checks; malformed input throws {@link IllegalArgumentException}. */
    public static ConnectInfo decode(byte[] bytes) {
        if (bytes.length > 2 * MAX_STRING + 32) throw new IllegalArgumentException("connect info too long: " + bytes.length);
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            ConnectInfo ci = new ConnectInfo(in.readUTF(), in.readInt(), in.readLong(), in.readUTF(), in.readInt());
            if (in.available() != 0) throw new IllegalArgumentException("trailing bytes in connect info");
            if (ci.qpn < 0) throw new IllegalArgumentException("negative qpn " + ci.qpn);
            return ci;
        } catch (IOException e) {
            throw new IllegalArgumentException("malformed connect info: " + e.getMessage(), e);
        }
    }
}
