package dev.jccl.bootstrap;

/** The rendezvous store failed: unreachable, connection lost, or a request it refused. */
public class StoreException extends RuntimeException {
    public StoreException(String message) {
        super(message);
    }

    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
