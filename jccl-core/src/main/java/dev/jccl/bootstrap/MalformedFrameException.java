package dev.jccl.bootstrap;

import java.io.IOException;

/** A store frame broke the wire layout; the connection that sent it is closed. */
final class MalformedFrameException extends IOException {
    MalformedFrameException(String message) {
        super(message);
    }
}
