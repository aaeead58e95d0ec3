package dev.jccl;

import dev.jccl.bootstrap.Rendezvous;
import dev.jccl.bootstrap.Store;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Explicit options for {@link Jccl#init(CommOptions)}: who this rank is and how it meets the others,
 * for programs that know better than the launcher's environment (tests with threads as ranks,
 * embedding frameworks).
 *
 * <p>Either a {@link Rendezvous} (rank and size come from it) or a {@link Store} shared by all ranks
 * with an explicit rank and size. Knob overrides win over the environment; {@link Builder#transports}
 * and {@link Builder#hostId} are shorthands for JCCL_TRANSPORT and JCCL_HOST_ID.
 */
public final class CommOptions {
    private final int rank;
    private final int size;
    private final Store store;
    private final Rendezvous rendezvous;
    private final Map<String, String> knobs;
    private final String namespace;
    private final boolean readEnvironment;

    private CommOptions(Builder b) {
        this.rank = b.rank;
        this.size = b.size;
        this.store = b.store;
        this.rendezvous = b.rendezvous;
        this.knobs = Map.copyOf(b.knobs);
        this.namespace = b.namespace;
        this.readEnvironment = b.readEnvironment;
        if (store == null && rendezvous == null) throw new IllegalArgumentException("CommOptions need a store or a rendezvous");
        if (store != null && rendezvous != null) throw new IllegalArgumentException("CommOptions take a store or a rendezvous, not both");
        if (rendezvous == null && (size < 1 || rank < 0 || rank >= size)) {
            throw new IllegalArgumentException("rank " + rank + " outside [0, " + size + "): give rank() and size() with a store");
        }
        if (namespace.isBlank() || namespace.contains("/")) {
            throw new IllegalArgumentException("namespace '" + namespace + "' must be a non-empty word without '/'");
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    public int rank() { return rendezvous != null ? rendezvous.environment().rank() : rank; }
    public int size() { return rendezvous != null ? rendezvous.environment().worldSize() : size; }
    public Store store() { return rendezvous != null ? rendezvous.store() : store; }
    public Rendezvous rendezvous() { return rendezvous; }
    public Map<String, String> knobs() { return knobs; }
    /** Prefix of every store key this communicator uses, so several jobs can share a store. */
    public String namespace() { return namespace; }
    /** Whether knobs not overridden come from the environment (true) or keep their defaults. */
    public boolean readEnvironment() { return readEnvironment; }

    public static final class Builder {
        private int rank = -1;
        private int size = -1;
        private Store store;
        private Rendezvous rendezvous;
        private final Map<String, String> knobs = new LinkedHashMap<>();
        private String namespace = "jccl";
        private boolean readEnvironment = true;

        private Builder() {}

        public Builder rank(int rank) { this.rank = rank; return this; }
        public Builder size(int size) { this.size = size; return this; }
        public Builder store(Store store) { this.store = Objects.requireNonNull(store, "store"); return this; }
        public Builder rendezvous(Rendezvous rv) { this.rendezvous = Objects.requireNonNull(rv, "rendezvous"); return this; }
        /** Overrides one knob, e.g. {@code knob("JCCL_TIMEOUT", "5s")}. */
        public Builder knob(String name, String value) { knobs.put(name, value); return this; }
        public Builder knobs(Map<String, String> values) { knobs.putAll(values); return this; }
        /** Providers allowed, in preference order (JCCL_TRANSPORT), e.g. "shm", "tcp". */
        public Builder transports(String... names) { return knob("JCCL_TRANSPORT", String.join(",", names)); }
        /** The host identity ranks are grouped by (JCCL_HOST_ID). */
        public Builder hostId(String id) { return knob("JCCL_HOST_ID", id); }
        public Builder namespace(String ns) { this.namespace = Objects.requireNonNull(ns, "namespace"); return this; }
        /** Ignore JCCL_* environment variables: only defaults and the knobs given here (for tests). */
        public Builder ignoreEnvironment() { this.readEnvironment = false; return this; }
        public CommOptions build() { return new CommOptions(this); }
    }
}
