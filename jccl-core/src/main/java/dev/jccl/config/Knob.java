package dev.jccl.config;

import java.util.Objects;
import java.util.function.Function;

/**
 * One configuration knob, declared once: its environment name, default, parser, unit and doc line.
 *
 * @param name      environment variable name, e.g. {@code JCCL_TIMEOUT}
 * @param defaultText the default as a user would type it (also what {@code devinfo -v} prints)
 * @param parser    turns text into a value; throws {@link IllegalArgumentException} with a reason
 * @param doc       one line saying what the knob changes and why one would set it
 */
public record Knob<T>(String name, String defaultText, Function<String, T> parser, String doc) {
    public Knob {
        Objects.requireNonNull(name);
        Objects.requireNonNull(parser);
        Objects.requireNonNull(doc);
    }

    /** Parses {@code text}, naming the knob and the text when it is malformed. */
    public T parse(String text) {
        try {
            return parser.apply(text);
        } catch (RuntimeException e) {
            throw new ConfigException(name + "='" + text + "' is invalid: " + e.getMessage(), e);
        }
    }
}
