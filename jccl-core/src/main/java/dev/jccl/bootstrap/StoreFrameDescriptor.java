package dev.jccl.bootstrap;

/**
 * The store's wire layout, in one place. Everything is big-endian.
 *
 * <pre>
 * frame    := i32 bodyBytes | body                     bodyBytes in [MIN_BODY_BYTES, MAX_BODY_BYTES]
 * request  := u8 opcode | i64 requestId | fields(opcode)
 * response := i64 requestId | u8 status | fields(status, opcode)
 * key      := i32 n | n bytes UTF-8                    1 <= n <= StoreLimits.MAX_KEY_BYTES
 * value    := i32 n | n bytes                          -1 (absent) <= n <= StoreLimits.MAX_VALUE_BYTES
 * keys     := i32 count | count x key                  0 <= count <= StoreLimits.MAX_WAIT_KEYS
 *
 * request fields                          OK response fields
 * SET      key value                      -
 * GET      key i64 timeoutNs              value
 * TRY_GET  key                            value (or absent)
 * ADD      key i64 delta                  i64 newValue
 * CAS      key value(expected|absent) value(desired)   value (current, or absent)
 * WAIT     keys i64 timeoutNs             -
 * DELETE   key                            u8 existed
 *
 * TIMEOUT  response := i64 waitedNs | keys(missing)
 * ERROR    response := value(UTF-8 message)
 * </pre>
 *
 * <p>Requests on one connection may be answered out of order: a GET blocked on a missing key must
 * not hold up a SET behind it, so each response names the request it answers.
 */
final class StoreFrameDescriptor {
    private StoreFrameDescriptor() {}

    static final byte OP_SET = 1;
    static final byte OP_GET = 2;
    static final byte OP_TRY_GET = 3;
    static final byte OP_ADD = 4;
    static final byte OP_CAS = 5;
    static final byte OP_WAIT = 6;
    static final byte OP_DELETE = 7;

    static final byte STATUS_OK = 0;
    static final byte STATUS_TIMEOUT = 1;
    static final byte STATUS_ERROR = 2;

    static final int LENGTH_PREFIX_BYTES = Integer.BYTES;
    static final int REQUEST_HEADER_BYTES = Byte.BYTES + Long.BYTES;
    static final int RESPONSE_HEADER_BYTES = Long.BYTES + Byte.BYTES;
    static final int MIN_BODY_BYTES = Math.min(REQUEST_HEADER_BYTES, RESPONSE_HEADER_BYTES);
    /** The largest request is a CAS: two full values and a key, plus headers and length fields. */
    static final int MAX_BODY_BYTES = 2 * StoreLimits.MAX_VALUE_BYTES + 64 * 1024;
    /** Value length meaning "absent". */
    static final int ABSENT = -1;

    static String opName(byte op) {
        return switch (op) {
            case OP_SET -> "SET";
            case OP_GET -> "GET";
            case OP_TRY_GET -> "TRY_GET";
            case OP_ADD -> "ADD";
            case OP_CAS -> "CAS";
            case OP_WAIT -> "WAIT";
            case OP_DELETE -> "DELETE";
            default -> "opcode " + op;
        };
    }
}
