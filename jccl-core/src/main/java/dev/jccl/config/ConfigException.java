package dev.jccl.config;

/** A knob's value could not be parsed or is out of range; the message names the knob and the value. */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}
