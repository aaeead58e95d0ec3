package dev.jccl.testkit;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.testkit.debug.DebugProvider;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.PortState;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsProvider;
import org.junit.jupiter.api.Assumptions;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * One provider under test with the configuration it runs under, found by name (never by class).
 *
 * <p>A target whose provider is missing or unusable here is skipped through an assumption whose
 * message says why, and the reason is printed once per target, so a skip is never silent.
 *
 * @param providerName  name as {@link Providers#byName} knows it
 * @param label         what test reports show, e.g. "tcp[JCCL_QPS_PER_CONNECTION=4]"
 * @param config        the configuration both ends open their contexts with
 * @param privateMemory what the provider promises about registering private memory for remote access
 */
public record ProviderTarget(String providerName, String label, Config config, PrivateMemoryRule privateMemory) {
    /** Whether memory not from {@code ProtectionDomain.allocate} may be exposed to peers. */
    public enum PrivateMemoryRule {
        /** Remote rights on private memory must be refused with a VerbsException (shm). */
        REFUSE_REMOTE,
        /** Either refused, or accepted and then fully usable by peers (tcp may allow it). */
        EITHER
    }

    private static final Set<String> REPORTED_SKIPS = ConcurrentHashMap.newKeySet();

    /** Knobs every conformance run uses: bounded waits well inside the tests' own timeouts. */
    public static Map<String, String> baseKnobs() {
        return Map.of(Knobs.TIMEOUT_NS.name(), "20s", Knobs.AUTH_TOKEN.name(), "conformance-token");
    }

    public static ProviderTarget of(String providerName, Map<String, String> knobs, PrivateMemoryRule rule) {
        Config config = Config.of(baseKnobs()).with(knobs);
        String label = knobs.isEmpty() ? providerName : providerName + new TreeMap<>(knobs).entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(",", "[", "]"));
        return new ProviderTarget(providerName, label, config, rule);
    }

    /**
     * The targets every conformance run covers: shm; tcp with one and with four sockets per queue
     * pair; and every other provider on the class path with its defaults. shm and tcp are listed even
     * when absent, so their absence shows up as a skip with a reason.
     */
    public static List<ProviderTarget> standard() {
        List<ProviderTarget> out = new ArrayList<>();
        out.add(of("shm", Map.of(), PrivateMemoryRule.REFUSE_REMOTE));
        out.add(of("tcp", Map.of(Knobs.QPS_PER_CONNECTION.name(), "1"), PrivateMemoryRule.EITHER));
        out.add(of("tcp", Map.of(Knobs.QPS_PER_CONNECTION.name(), "4"), PrivateMemoryRule.EITHER));
        // The fault-injecting wrapper without faults must be the provider it wraps, request for request.
        out.add(of(DebugProvider.NAME, Map.of(Knobs.TRANSPORT.name(), "debug,shm"), PrivateMemoryRule.REFUSE_REMOTE));
        out.add(of(DebugProvider.NAME, Map.of(Knobs.TRANSPORT.name(), "debug,tcp"), PrivateMemoryRule.EITHER));
        for (VerbsProvider p : Providers.all()) {
            if (!p.name().equals("shm") && !p.name().equals("tcp") && !p.name().equals(DebugProvider.NAME)) {
                out.add(of(p.name(), Map.of(), PrivateMemoryRule.EITHER));
            }
        }
        return out;
    }

    /** This target with some knobs replaced, e.g. a longer RNR timeout for one check. */
    public ProviderTarget withKnobs(Map<String, String> knobs) {
        return new ProviderTarget(providerName, label, config.with(knobs), privateMemory);
    }

    /** The provider, or empty when it is not on the class path. */
    public Optional<VerbsProvider> provider() {
        return Providers.byName(providerName);
    }

    /** Why this target cannot run here, or empty when it can. */
    public Optional<String> skipReason() {
        Optional<VerbsProvider> p = provider();
        if (p.isEmpty()) {
            return Optional.of("provider '" + providerName + "' is not on the class path; known: "
                    + Providers.all().stream().map(VerbsProvider::name).toList());
        }
        return p.get().unavailabilityCause(config).map(cause -> "provider '" + providerName + "' unavailable: " + cause);
    }

    /** Skips the calling test (printing the reason once per target) unless this target can run. */
    public VerbsProvider requireUsable() {
        Optional<String> reason = skipReason();
        if (reason.isPresent() && REPORTED_SKIPS.add(label)) {
            System.err.println("SKIPPED conformance of " + label + ": " + reason.get());
        }
        Assumptions.assumeTrue(reason.isEmpty(), () -> "skipped " + label + ": " + reason.orElse(""));
        return provider().orElseThrow();
    }

    /** The first device with an ACTIVE port; a usable provider without one fails the test. */
    public Device activeDevice(VerbsProvider provider) {
        List<Device> devices = provider.devices(config);
        return devices.stream()
                .filter(d -> d.ports().stream().anyMatch(port -> port.state() == PortState.ACTIVE))
                .findFirst()
                .orElseThrow(() -> new AssertionError(label + " says it is available but lists no device with an"
                        + " ACTIVE port: " + devices));
    }

    @Override
    public String toString() {
        return label;
    }
}
