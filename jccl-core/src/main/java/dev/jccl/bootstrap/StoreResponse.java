package dev.jccl.bootstrap;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static dev.jccl.bootstrap.StoreFrameDescriptor.STATUS_ERROR;
import static dev.jccl.bootstrap.StoreFrameDescriptor.STATUS_OK;
import static dev.jccl.bootstrap.StoreFrameDescriptor.STATUS_TIMEOUT;

/**
 * A client's view of one answer from the store: TIMEOUT and ERROR become exceptions, an OK answer
 * yields its fields. A malformed answer (a broken server, never a missing key) is a
 * {@link StoreException} naming the store.
 */
final class StoreResponse {
    private final StoreCodec.Reader reader;
    private final String endpoint;
    private final String op;

    private StoreResponse(StoreCodec.Reader reader, String endpoint, String op) {
        this.reader = reader;
        this.endpoint = endpoint;
        this.op = op;
    }

    /** Reads the status of {@code r} (positioned after the request id) and throws unless it is OK. */
    static StoreResponse of(StoreCodec.Reader r, String endpoint, String op) {
        StoreResponse resp = new StoreResponse(r, endpoint, op);
        try {
            byte status = r.u8();
            switch (status) {
                case STATUS_OK -> {
                    return resp;
                }
                case STATUS_TIMEOUT -> {
                    long waitedNs = r.i64();
                    List<String> missing = r.keys();
                    r.end();
                    throw new StoreTimeoutException(missing, waitedNs);
                }
                case STATUS_ERROR -> {
                    byte[] msg = r.value();
                    throw new StoreException("store at " + endpoint + " refused " + op + ": "
                            + (msg == null ? "(no reason)" : new String(msg, StandardCharsets.UTF_8)));
                }
                default -> throw new MalformedFrameException("unknown status " + status);
            }
        } catch (MalformedFrameException e) {
            throw resp.malformed(e);
        }
    }

    byte[] value() {
        try {
            return reader.value();
        } catch (MalformedFrameException e) {
            throw malformed(e);
        }
    }

    long i64() {
        try {
            return reader.i64();
        } catch (MalformedFrameException e) {
            throw malformed(e);
        }
    }

    byte u8() {
        try {
            return reader.u8();
        } catch (MalformedFrameException e) {
            throw malformed(e);
        }
    }

    void end() {
        try {
            reader.end();
        } catch (MalformedFrameException e) {
            throw malformed(e);
        }
    }

    private StoreException malformed(MalformedFrameException e) {
        return new StoreException("malformed " + op + " answer from the store at " + endpoint + ": " + e.getMessage(), e);
    }
}
