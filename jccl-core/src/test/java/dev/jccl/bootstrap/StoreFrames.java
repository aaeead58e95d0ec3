package dev.jccl.bootstrap;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static dev.jccl.bootstrap.StoreFrameDescriptor.*;

/** Well-formed store request bodies of every opcode, from a seed: what the fuzz properties mutate. */
final class StoreFrames {
    private StoreFrames() {}

    /** A request of a random opcode; {@code immediate}: never a GET or WAIT, so the server answers at once. */
    static byte[] request(SplittableRandom r, long id, boolean immediate) {
        byte[] ops = immediate ? new byte[] {OP_SET, OP_TRY_GET, OP_ADD, OP_CAS, OP_DELETE}
                : new byte[] {OP_SET, OP_GET, OP_TRY_GET, OP_ADD, OP_CAS, OP_WAIT, OP_DELETE};
        byte op = ops[r.nextInt(ops.length)];
        StoreCodec.Writer w = new StoreCodec.Writer().u8(op).i64(id);
        String key = key(r);
        return switch (op) {
            case OP_SET -> w.key(key).value(value(r)).body();
            case OP_GET -> w.key(key).i64(r.nextLong(1_000_000)).body();
            case OP_ADD -> w.key("n-" + key).i64(r.nextLong(-5, 5)).body();
            case OP_CAS -> w.key(key).value(r.nextBoolean() ? null : value(r)).value(value(r)).body();
            case OP_WAIT -> {
                List<String> keys = new ArrayList<>();
                for (int i = r.nextInt(4); i > 0; i--) keys.add(key(r));
                yield w.keys(keys).i64(r.nextLong(1_000_000)).body();
            }
            default -> w.key(key).body(); // TRY_GET, DELETE
        };
    }

    static String key(SplittableRandom r) {
        String[] alphabet = {"a", "b", "rank", "/", "é", "键", "0", "_"};
        StringBuilder sb = new StringBuilder();
        for (int i = 1 + r.nextInt(6); i > 0; i--) sb.append(alphabet[r.nextInt(alphabet.length)]);
        return sb.toString();
    }

    static byte[] value(SplittableRandom r) {
        byte[] v = new byte[r.nextInt(48)];
        r.nextBytes(v);
        return v;
    }

    /** The body with its length prefix, as it travels. */
    static byte[] framed(byte[] body) {
        return ByteBuffer.allocate(LENGTH_PREFIX_BYTES + body.length).putInt(body.length).put(body).array();
    }
}
