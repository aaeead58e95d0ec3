package dev.jccl.testkit.debug;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.VerbsProvider;

import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A provider that wraps another (shm, tcp, ucx: {@code inner=} of the {@link FaultSpec}) and injects
 * the spec's faults into the send requests and polls of one rank, in the manner of Aeron's
 * {@code LossGenerator}. Found by {@link java.util.ServiceLoader} under the name {@value #NAME};
 * usable only when JCCL_TRANSPORT names it, so a test kit on the class path changes nothing
 * for jobs that do not ask for it. Where the spec and the rank come from: {@link Faults}.
 *
 * <p>Without faults it is the inner provider, request for request (the conformance suite runs
 * through it). With faults, jccl must end every collective with a correct result or a clear error
 * on every rank: that is what the tests and {@code bench/fault-campaign.sh} check.
 */
public final class DebugProvider implements VerbsProvider {
    public static final String NAME = "debug";
    private static final List<DebugContext> OPEN = new CopyOnWriteArrayList<>();

    /** For {@link java.util.ServiceLoader}. */
    public DebugProvider() {}

    @Override
    public String name() {
        return NAME;
    }

    /** The wrapped provider: the spec's {@code inner}, else the first other name in JCCL_TRANSPORT, else tcp. */
    static VerbsProvider inner(FaultSpec spec, Config config) {
        if (!spec.inner().isEmpty()) return Providers.require(spec.inner());
        for (String n : config.get(Knobs.TRANSPORT).split(",")) {
            if (!n.isBlank() && !n.trim().equals(NAME)) return Providers.require(n.trim());
        }
        return Providers.require("tcp");
    }

    private static VerbsProvider inner(Config config) {
        return inner(Faults.current().spec(), config);
    }

    @Override
    public Optional<String> unavailabilityCause(Config config) {
        if (!Arrays.asList(config.get(Knobs.TRANSPORT).split(",")).contains(NAME)) {
            return Optional.of("a fault-injecting test wrapper; select it with JCCL_TRANSPORT=" + NAME + " and " + Faults.VARIABLE);
        }
        return inner(config).unavailabilityCause(config).map(c -> "inner provider " + inner(config).name() + ": " + c);
    }

    @Override
    public List<Device> devices(Config config) {
        return inner(config).devices(config).stream().map(d -> new Device(NAME, d.name(), d.guid(), d.ports())).toList();
    }

    @Override
    public DeviceContext open(Device device, Config config) {
        Faults.Binding b = Faults.current();
        VerbsProvider inner = inner(b.spec(), config);
        Device innerDevice = inner.devices(config).stream().filter(d -> d.name().equals(device.name())).findFirst()
                .orElseThrow(() -> new VerbsException("inner provider " + inner.name() + " has no device " + device.name()));
        return new DebugContext(inner.open(innerDevice, config), device, new Injector(b.rank(), b.spec()));
    }

    @Override
    public String locality(Config config) {
        VerbsProvider inner = inner(config);
        return inner.name() + "|" + inner.locality(config);
    }

    /** As the inner provider decides, for ranks that wrap the same one. */
    @Override
    public boolean reaches(String mine, String theirs) {
        int a = mine.indexOf('|');
        int b = theirs.indexOf('|');
        if (a < 0 || b < 0 || !mine.substring(0, a).equals(theirs.substring(0, b))) return false;
        return Providers.require(mine.substring(0, a)).reaches(mine.substring(a + 1), theirs.substring(b + 1));
    }

    static void opened(DebugContext c) {
        OPEN.add(c);
    }

    static void closed(DebugContext c) {
        OPEN.remove(c);
    }

    /** How often each fault struck so far on {@code rank}, over its contexts open now (for tests that check a fault fired). */
    public static Map<FaultSpec.Kind, Long> fired(int rank) {
        Map<FaultSpec.Kind, Long> m = new EnumMap<>(FaultSpec.Kind.class);
        for (DebugContext c : OPEN) {
            if (c.injector().rank() == rank) c.injector().fired().forEach((k, v) -> m.merge(k, v, Long::sum));
        }
        return m;
    }
}
