package dev.jccl.bootstrap;

import java.util.List;

import static dev.jccl.bootstrap.StoreFrameDescriptor.*;

/**
 * One request body, parsed and checked against {@link StoreFrameDescriptor} before anything is done
 * with it: the opcode is known, every length is within its limit and inside the frame, the frame
 * holds exactly the opcode's fields, a SET or CAS carries its value and a timeout is not negative.
 * Parsing executes nothing, so a frame is refused whole or taken whole. Fields an opcode does not
 * have are null, empty or 0.
 */
record StoreRequest(byte op, long id, String key, List<String> keys, byte[] value, byte[] expected, long number) {

    /** The delta of an ADD, or the timeout of a GET or WAIT. */
    long timeoutNs() {
        return number;
    }

    static StoreRequest parse(byte[] body) throws MalformedFrameException {
        StoreCodec.Reader r = new StoreCodec.Reader(body);
        byte op = r.u8();
        long id = r.i64();
        StoreRequest req = switch (op) {
            case OP_SET -> {
                String key = r.key();
                byte[] value = r.value();
                if (value == null) throw new MalformedFrameException("SET of '" + key + "' carries no value");
                yield new StoreRequest(op, id, key, List.of(), value, null, 0);
            }
            case OP_GET -> {
                String key = r.key();
                yield new StoreRequest(op, id, key, List.of(key), null, null, timeout(r));
            }
            case OP_TRY_GET, OP_DELETE -> new StoreRequest(op, id, r.key(), List.of(), null, null, 0);
            case OP_ADD -> new StoreRequest(op, id, r.key(), List.of(), null, null, r.i64());
            case OP_CAS -> {
                String key = r.key();
                byte[] expected = r.value();
                byte[] desired = r.value();
                if (desired == null) throw new MalformedFrameException("CAS of '" + key + "' carries no desired value");
                yield new StoreRequest(op, id, key, List.of(), desired, expected, 0);
            }
            case OP_WAIT -> {
                List<String> keys = r.keys();
                yield new StoreRequest(op, id, null, keys, null, null, timeout(r));
            }
            default -> throw new MalformedFrameException("unknown opcode " + op);
        };
        r.end();
        return req;
    }

    private static long timeout(StoreCodec.Reader r) throws MalformedFrameException {
        long ns = r.i64();
        if (ns < 0) throw new MalformedFrameException("negative timeout " + ns + " ns");
        return ns;
    }
}
