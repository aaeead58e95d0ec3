package dev.jccl.config;

import dev.jccl.util.WaitPolicy;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A validated snapshot of every knob, with where each value came from.
 *
 * <p>Resolution order, strongest first: explicit overrides (code or CLI flags), then JVM system
 * properties of the same name, then the environment, then the default. Every knob is parsed once, in
 * the constructor, so a typo fails at startup naming the knob, never deep inside a collective.
 * Immutable and thread-safe.
 */
public final class Config {
    /** Where a value came from, as {@code devinfo -v} prints it. */
    public enum Source { DEFAULT, ENVIRONMENT, SYSTEM_PROPERTY, EXPLICIT }

    public record Entry(Knob<?> knob, String text, Object value, Source source) {}

    private final Map<String, Entry> entries;

    private Config(Map<String, String> env, Map<String, String> overrides) {
        Map<String, Entry> m = new LinkedHashMap<>();
        for (Knob<?> k : Knobs.ALL) {
            String text = k.defaultText();
            Source src = Source.DEFAULT;
            String sys = System.getProperty(k.name());
            if (env.get(k.name()) != null) { text = env.get(k.name()); src = Source.ENVIRONMENT; }
            if (sys != null) { text = sys; src = Source.SYSTEM_PROPERTY; }
            if (overrides.get(k.name()) != null) { text = overrides.get(k.name()); src = Source.EXPLICIT; }
            m.put(k.name(), new Entry(k, text, k.parse(text), src));
        }
        for (String name : overrides.keySet()) {
            if (!m.containsKey(name)) throw new ConfigException("unknown knob " + name);
        }
        this.entries = Collections.unmodifiableMap(m);
    }

    /** Reads the process environment and system properties. */
    public static Config fromEnvironment() {
        return new Config(System.getenv(), Map.of());
    }

    /** Environment plus explicit overrides (knob name to text). */
    public static Config fromEnvironment(Map<String, String> overrides) {
        return new Config(System.getenv(), overrides);
    }

    /** Only defaults and the given values; ignores the environment (for tests). */
    public static Config of(Map<String, String> values) {
        return new Config(Map.of(), values);
    }

    public <T> T get(Knob<T> knob) {
        Entry e = Objects.requireNonNull(entries.get(knob.name()), knob.name());
        @SuppressWarnings("unchecked") T v = (T) e.value();
        return v;
    }

    /**
     * The wait policy these knobs conclude to, for {@code ranksOnHost} ranks sharing this host's
     * cores. A provider, which does not know how many ranks share the host, passes 1: what its
     * completion queues decide does not depend on it.
     */
    public WaitPolicy waitPolicy(int ranksOnHost) {
        return WaitPolicy.of(get(Knobs.SPIN_NS), ranksOnHost, Runtime.getRuntime().availableProcessors());
    }

    public Entry entry(Knob<?> knob) {
        return entries.get(knob.name());
    }

    /** A copy with some knobs replaced (validated like the rest). */
    public Config with(Map<String, String> more) {
        Map<String, String> o = new LinkedHashMap<>();
        for (Entry e : entries.values()) {
            if (e.source() != Source.DEFAULT) o.put(e.knob().name(), e.text());
        }
        o.putAll(more);
        return new Config(Map.of(), o);
    }

    public Iterable<Entry> entries() {
        return entries.values();
    }
}
