package dev.jccl.bootstrap;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static dev.jccl.bootstrap.StoreFrameDescriptor.ABSENT;
import static dev.jccl.bootstrap.StoreFrameDescriptor.LENGTH_PREFIX_BYTES;
import static dev.jccl.bootstrap.StoreFrameDescriptor.MAX_BODY_BYTES;
import static dev.jccl.bootstrap.StoreFrameDescriptor.MIN_BODY_BYTES;

/**
 * Reads and writes {@link StoreFrameDescriptor} frames. Every length read from the wire is checked
 * against its limit and against the bytes actually left before anything is allocated or copied.
 */
final class StoreCodec {
    private StoreCodec() {}

    /** Reads one frame body; null on a clean end of stream between frames. */
    static byte[] readFrame(DataInputStream in) throws IOException {
        int first = in.read();
        if (first < 0) return null;
        int n = (first << 24) | (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
        if (n < MIN_BODY_BYTES || n > MAX_BODY_BYTES) {
            throw new MalformedFrameException("frame length " + n + " outside [" + MIN_BODY_BYTES + ", " + MAX_BODY_BYTES + "]");
        }
        byte[] body = in.readNBytes(n);
        if (body.length != n) throw new MalformedFrameException("stream ended inside a frame: got " + body.length + " of " + n + " bytes");
        return body;
    }

    /** Writes one frame; callers serialize writers on the stream. */
    static void writeFrame(OutputStream out, byte[] body) throws IOException {
        byte[] buf = ByteBuffer.allocate(LENGTH_PREFIX_BYTES + body.length).putInt(body.length).put(body).array();
        out.write(buf);
        out.flush();
    }

    /** A checked view over one received frame body. */
    static final class Reader {
        private final ByteBuffer buf;

        Reader(byte[] body) {
            buf = ByteBuffer.wrap(body);
        }

        byte u8() throws MalformedFrameException {
            need(1, "byte");
            return buf.get();
        }

        long i64() throws MalformedFrameException {
            need(Long.BYTES, "long");
            return buf.getLong();
        }

        String key() throws MalformedFrameException {
            int n = length("key");
            if (n < 1 || n > StoreLimits.MAX_KEY_BYTES) {
                throw new MalformedFrameException("key length " + n + " outside [1, " + StoreLimits.MAX_KEY_BYTES + "]");
            }
            need(n, "key");
            ByteBuffer slice = buf.slice(buf.position(), n);
            buf.position(buf.position() + n);
            try {
                CharBuffer chars = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT).decode(slice);
                return chars.toString();
            } catch (CharacterCodingException e) {
                throw new MalformedFrameException("key is not valid UTF-8");
            }
        }

        /** A value, or null when the frame says absent. */
        byte[] value() throws MalformedFrameException {
            int n = length("value");
            if (n == ABSENT) return null;
            if (n < 0 || n > StoreLimits.MAX_VALUE_BYTES) {
                throw new MalformedFrameException("value length " + n + " outside [-1, " + StoreLimits.MAX_VALUE_BYTES + "]");
            }
            need(n, "value");
            byte[] v = new byte[n];
            buf.get(v);
            return v;
        }

        List<String> keys() throws MalformedFrameException {
            int count = length("key count");
            // Each key takes at least 5 bytes, so a count the frame cannot hold is refused before allocating.
            if (count < 0 || count > StoreLimits.MAX_WAIT_KEYS || count > buf.remaining() / 5) {
                throw new MalformedFrameException("key count " + count + " impossible with " + buf.remaining() + " bytes left (limit "
                        + StoreLimits.MAX_WAIT_KEYS + ")");
            }
            List<String> keys = new ArrayList<>(count);
            for (int i = 0; i < count; i++) keys.add(key());
            return keys;
        }

        /** Fails when bytes are left over: a frame must be exactly its fields. */
        void end() throws MalformedFrameException {
            if (buf.hasRemaining()) throw new MalformedFrameException(buf.remaining() + " trailing bytes after the last field");
        }

        private int length(String what) throws MalformedFrameException {
            need(Integer.BYTES, what + " length");
            return buf.getInt();
        }

        private void need(int n, String what) throws MalformedFrameException {
            if (buf.remaining() < n) {
                throw new MalformedFrameException("frame ends inside a " + what + ": needs " + n + " bytes, " + buf.remaining() + " left");
            }
        }
    }

    /** Builds one frame body; checks the total against the frame limit. */
    static final class Writer {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        private final DataOutputStream out = new DataOutputStream(bytes);

        Writer u8(byte b) {
            return io(() -> out.writeByte(b));
        }

        Writer i64(long v) {
            return io(() -> out.writeLong(v));
        }

        Writer key(String key) {
            byte[] utf8 = StoreLimits.checkKey(key);
            return io(() -> {
                out.writeInt(utf8.length);
                out.write(utf8);
            });
        }

        Writer value(byte[] v) {
            return io(() -> {
                if (v == null) {
                    out.writeInt(ABSENT);
                } else {
                    out.writeInt(v.length);
                    out.write(v);
                }
            });
        }

        Writer keys(List<String> keys) {
            io(() -> out.writeInt(keys.size()));
            for (String k : keys) key(k);
            return this;
        }

        byte[] body() {
            if (bytes.size() > MAX_BODY_BYTES) {
                throw new IllegalArgumentException("store request of " + bytes.size() + " bytes exceeds the " + MAX_BODY_BYTES + "-byte frame limit");
            }
            return bytes.toByteArray();
        }

        private interface IoAction {
            void run() throws IOException;
        }

        private Writer io(IoAction a) {
            try {
                a.run();
            } catch (IOException e) {
                throw new UncheckedIOException(e); // a ByteArrayOutputStream never fails
            }
            return this;
        }
    }
}
