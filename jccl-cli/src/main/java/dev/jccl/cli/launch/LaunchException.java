package dev.jccl.cli.launch;

/** A job could not be started: a rank's command would not run, or the store could not be hosted. */
public final class LaunchException extends RuntimeException {
    public LaunchException(String message, Throwable cause) {
        super(message, cause);
    }
}
