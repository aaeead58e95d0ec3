package dev.jccl.cli.tool;

import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsProvider;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Which provider carries a pair of ranks, by the runtime's rule: the first provider in the lower
 * rank's JCCL_TRANSPORT order that both ranks have and that says it reaches between their
 * localities ({@link VerbsProvider#reaches}); and which one would with every provider allowed (the
 * default order), which is what a silent fallback is measured against.
 */
public final class Links {
    private Links() {}

    /** The provider the pair uses, or empty when none connects them. */
    public static Optional<String> chosen(RankFacts a, RankFacts b) {
        RankFacts lower = a.rank() < b.rank() ? a : b;
        return first(Arrays.asList(lower.get("allowed").split(",")), a, b);
    }

    /** The provider the pair would use if JCCL_TRANSPORT allowed every provider on the class path. */
    public static Optional<String> best(RankFacts a, RankFacts b) {
        return first(Providers.all().stream().map(VerbsProvider::name).toList(), a, b);
    }

    private static Optional<String> first(List<String> order, RankFacts a, RankFacts b) {
        for (String name : order) {
            String la = a.providers().get(name);
            String lb = b.providers().get(name);
            Optional<VerbsProvider> p = Providers.byName(name);
            if (la != null && lb != null && p.isPresent() && p.get().reaches(la, lb)) return Optional.of(name);
        }
        return Optional.empty();
    }

    /** A cell of the topology matrix: SELF, SHM, NET(interface), or the provider's name. */
    public static String label(RankFacts a, RankFacts b) {
        if (a.rank() == b.rank()) return "SELF";
        Optional<String> p = chosen(a, b);
        if (p.isEmpty()) return "NONE";
        return switch (p.get()) {
            case "shm" -> "SHM";
            case "tcp" -> "NET(" + (a.get("device.tcp").isEmpty() ? "?" : a.get("device.tcp")) + ")";
            default -> p.get().toUpperCase(Locale.ROOT);
        };
    }
}
