package dev.jccl.bootstrap;

/** The launcher's variables are missing, malformed or contradict each other; the message names them. */
public final class LaunchEnvironmentException extends RuntimeException {
    public LaunchEnvironmentException(String message) {
        super(message);
    }
}
