package dev.jccl.verbs.base;

/**
 * A peer's RDMA request does not fit a registered region: unknown rkey, out of bounds, or a missing
 * right. Providers turn it into a REM_ACCESS_ERR completion at the requester; the target memory is
 * never touched.
 */
public final class RemoteAccessException extends Exception {
    public RemoteAccessException(String message) {
        super(message, null, false, false);
    }
}
