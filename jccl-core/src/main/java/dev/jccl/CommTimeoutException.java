package dev.jccl;

/**
 * An operation made no progress for JCCL_TIMEOUT (typically: some rank never called it), or a
 * bounded wait ran out. The message names the operation, its sequence number, the ranks that did not
 * show progress, and this rank's recent operations.
 */
public class CommTimeoutException extends JcclException {
    public CommTimeoutException(String message) {
        super(message);
    }
}
