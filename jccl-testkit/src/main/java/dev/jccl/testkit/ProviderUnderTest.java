package dev.jccl.testkit;

import dev.jccl.config.Config;
import dev.jccl.testkit.debug.DebugProvider;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsProvider;
import org.junit.jupiter.api.Assumptions;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The providers the multi-process tests run over: every provider jccl knows by name, plus any other
 * found on the class path. A provider that is absent or unusable here is skipped with its reason
 * printed, never silently.
 */
public final class ProviderUnderTest {
    /** Always asked for, so a provider missing from the class path shows up as a skip, not as nothing. */
    public static final List<String> EXPECTED = List.of("shm", "tcp");
    /** What each known provider's connections say they use, so a silent fallback fails a test. */
    public static final Map<String, String> DATA_PATH = Map.of("shm", "via SHM", "tcp", "via NET/Socket", "ucx", "via NET/UCX");

    private ProviderUnderTest() {}

    /**
     * Parameter source: the expected names and every provider on the class path, sorted. The
     * fault-injecting wrapper is left out: it is no transport of its own, and its tests name it.
     */
    public static Stream<String> names() {
        TreeSet<String> names = new TreeSet<>(EXPECTED);
        Providers.all().forEach(p -> names.add(p.name()));
        names.remove(DebugProvider.NAME);
        return names.stream();
    }

    /** The named provider if it is here and usable with {@code config}; otherwise skips the test, saying why. */
    public static VerbsProvider require(String name, Config config) {
        Optional<VerbsProvider> provider = Providers.byName(name);
        String why = provider.isEmpty()
                ? "provider '" + name + "' is not on the class path (found: "
                        + Providers.all().stream().map(VerbsProvider::name).toList() + ")"
                : provider.get().unavailabilityCause(config).map(c -> "provider '" + name + "' is unavailable: " + c)
                        .orElse(null);
        if (why != null) System.out.println("SKIPPED: " + why);
        Assumptions.assumeTrue(why == null, why);
        return provider.get();
    }

    /** {@link #require(String, Config)} with this process's configuration. */
    public static VerbsProvider require(String name) {
        return require(name, Config.fromEnvironment());
    }
}
