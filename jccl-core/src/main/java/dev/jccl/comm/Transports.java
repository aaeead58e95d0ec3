package dev.jccl.comm;

import dev.jccl.config.Config;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.VerbsProvider;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which provider carries the traffic to each peer, and the opened device, protection domain and
 * index of each provider in use (opened on first need).
 *
 * <p>The choice: the first provider in this rank's JCCL_TRANSPORT order that the peer can use too
 * and that reaches it; shared memory reaches only ranks with the same host id. With the default
 * order (all providers, by name) that is shm within a host and tcp across hosts. Both ends compute
 * the same answer from the host ids and provider lists exchanged at init.
 */
final class Transports implements AutoCloseable {
    /** Providers that only reach ranks on the same host. */
    private static final Set<String> HOST_LOCAL = Set.of("shm");

    record Endpoint(int index, VerbsProvider provider, DeviceContext context, ProtectionDomain pd) {}

    private final Config config;
    private final int rank;
    private final List<String> hostOf;
    private final List<List<String>> providersOf;
    private final Map<String, Endpoint> open = new LinkedHashMap<>();
    private final List<Endpoint> byIndex = new ArrayList<>();

    Transports(Config config, int rank, List<String> hostOf, List<List<String>> providersOf) {
        this.config = config;
        this.rank = rank;
        this.hostOf = hostOf;
        this.providersOf = providersOf;
    }

    /** Names of the providers usable here and allowed by JCCL_TRANSPORT, in preference order. */
    static List<String> allowedHere(Config config) {
        return Providers.allowed(config).stream().map(VerbsProvider::name).toList();
    }

    /** The provider for traffic to {@code peer}; throws naming both ranks' lists when none fits. */
    String choose(int peer) {
        boolean sameHost = hostOf.get(peer).equals(hostOf.get(rank));
        for (String p : providersOf.get(rank)) {
            if (providersOf.get(peer).contains(p) && (sameHost || !HOST_LOCAL.contains(p))) return p;
        }
        throw new VerbsException("no provider connects rank " + rank + " (host " + hostOf.get(rank) + ", providers "
                + providersOf.get(rank) + ") with rank " + peer + " (host " + hostOf.get(peer) + ", providers "
                + providersOf.get(peer) + "); " + unusableHere());
    }

    /** Why providers are missing from this rank's list: what devinfo would say, else the knob to check. */
    private String unusableHere() {
        List<String> causes = new ArrayList<>();
        for (VerbsProvider p : Providers.all()) {
            p.unavailabilityCause(config).ifPresent(c -> causes.add(p.name() + " is unavailable here: " + c));
        }
        return causes.isEmpty() ? "check JCCL_TRANSPORT on both" : String.join("; ", causes) + " (see ./jccl devinfo)";
    }

    synchronized Endpoint endpointFor(int peer) {
        String name = choose(peer);
        Endpoint e = open.get(name);
        if (e != null) return e;
        VerbsProvider provider = Providers.require(name);
        var devices = provider.devices(config);
        if (devices.isEmpty()) throw new VerbsException("provider " + name + " lists no device here");
        DeviceContext ctx = provider.open(devices.getFirst(), config);
        try {
            e = new Endpoint(byIndex.size(), provider, ctx, ctx.allocPd());
        } catch (RuntimeException ex) {
            ctx.close();
            throw ex;
        }
        Log.info(Subsys.INIT, "rank %d: opened %s device %s", rank, name, devices.getFirst().name());
        open.put(name, e);
        byIndex.add(e);
        return e;
    }

    @Override
    public synchronized void close() {
        for (Endpoint e : byIndex) {
            try {
                e.pd().close();
            } finally {
                e.context().close();
            }
        }
        open.clear();
        byIndex.clear();
    }
}
