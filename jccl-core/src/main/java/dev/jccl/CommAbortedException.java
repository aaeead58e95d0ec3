package dev.jccl;

/**
 * The communicator was aborted, by {@link Communicator#abort()} on some rank or because an earlier
 * operation failed; every later call fails with this, carrying the original failure as its cause.
 */
public class CommAbortedException extends JcclException {
    public CommAbortedException(String message) {
        super(message);
    }

    public CommAbortedException(String message, Throwable cause) {
        super(message, cause);
    }
}
