package dev.jccl.verbs.tcp;

import java.io.IOException;

/**
 * Bytes from the wire that break the protocol: a field out of range, a frame the connection cannot
 * carry, a sequence number outside the window. The connection is unusable afterwards; the queue pair
 * goes to ERR. Nothing of the frame has reached memory when this is thrown.
 */
final class MalformedFrameException extends IOException {
    MalformedFrameException(String message) {
        super(message);
    }
}
