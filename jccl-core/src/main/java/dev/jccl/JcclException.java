package dev.jccl;

/**
 * Base of every failure a collective reports. Unchecked, like the errors of NCCL and MPI: a failed
 * collective leaves the communicator unusable, and the message says why and on which rank, op and
 * sequence number. Bad arguments are not JcclExceptions: they are refused at the call with
 * {@link IllegalArgumentException} before anything is sent.
 */
public class JcclException extends RuntimeException {
    public JcclException(String message) {
        super(message);
    }

    public JcclException(String message, Throwable cause) {
        super(message, cause);
    }
}
