package dev.jccl.verbs;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/** Finds providers through {@link ServiceLoader}; nothing else in jccl names a provider class. */
public final class Providers {
    private Providers() {}

    /** Every provider on the class path, usable or not, sorted by name. */
    public static List<VerbsProvider> all() {
        List<VerbsProvider> out = new ArrayList<>();
        ServiceLoader.load(VerbsProvider.class).forEach(out::add);
        out.sort((a, b) -> a.name().compareTo(b.name()));
        return out;
    }

    public static Optional<VerbsProvider> byName(String name) {
        return all().stream().filter(p -> p.name().equals(name)).findFirst();
    }

    /** The named provider, or a {@link VerbsException} listing the names that exist. */
    public static VerbsProvider require(String name) {
        return byName(name).orElseThrow(() -> new VerbsException("no provider '" + name + "'; known: "
                + all().stream().map(VerbsProvider::name).toList()));
    }

    /**
     * Providers allowed by JCCL_TRANSPORT, in its order (all, by name, when it is empty), that are
     * usable here.
     */
    public static List<VerbsProvider> allowed(Config config) {
        List<VerbsProvider> out = named(config);
        out.removeIf(p -> p.unavailabilityCause(config).isPresent());
        return out;
    }

    /**
     * The providers JCCL_TRANSPORT names, in its order (all, by name, when it is empty), usable here or
     * not; a name no provider has is a {@link VerbsException} listing the names that exist.
     */
    public static List<VerbsProvider> named(Config config) {
        String list = config.get(Knobs.TRANSPORT);
        List<VerbsProvider> out = new ArrayList<>();
        if (list.isBlank()) {
            out.addAll(all());
        } else {
            for (String n : list.split(",")) {
                if (!n.isBlank()) out.add(require(n.trim()));
            }
        }
        return out;
    }
}
