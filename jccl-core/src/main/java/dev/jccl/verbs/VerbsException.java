package dev.jccl.verbs;

/** A verbs contract breach or a provider failure; the message names what and why. */
public class VerbsException extends RuntimeException {
    public VerbsException(String message) {
        super(message);
    }

    public VerbsException(String message, Throwable cause) {
        super(message, cause);
    }
}
