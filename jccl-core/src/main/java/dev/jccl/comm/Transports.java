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

/**
 * Which provider carries the traffic to each peer, and the opened device, protection domain and
 * index of each provider in use (opened on first need).
 *
 * <p>The choice: the first provider, in the lower rank's JCCL_TRANSPORT order, that both ranks can
 * use and that says it reaches between their localities ({@link VerbsProvider#reaches}). Both ends
 * compute it from the hellos exchanged at init, and taking one end's order makes them agree even
 * when their orders differ. With the default order (all providers, by name) that is shm within a
 * host and tcp across hosts; the runtime knows neither name, so a provider in another module plugs
 * in without touching this class.
 */
final class Transports implements AutoCloseable {
    record Endpoint(int index, VerbsProvider provider, DeviceContext context, ProtectionDomain pd) {}

    private final Config config;
    private final int rank;
    private final List<Hello> hellos;
    private final Map<String, VerbsProvider> usable = new LinkedHashMap<>();
    private final Map<String, Endpoint> open = new LinkedHashMap<>();
    private final List<Endpoint> byIndex = new ArrayList<>();

    Transports(Config config, int rank, List<Hello> hellos) {
        this.config = config;
        this.rank = rank;
        this.hellos = List.copyOf(hellos);
        for (VerbsProvider p : Providers.allowed(config)) usable.put(p.name(), p);
    }

    /** The locality of each provider usable here and allowed by JCCL_TRANSPORT, in preference order. */
    static Map<String, String> localitiesHere(Config config) {
        Map<String, String> out = new LinkedHashMap<>();
        for (VerbsProvider p : Providers.allowed(config)) out.put(p.name(), p.locality(config));
        return out;
    }

    /** The provider for traffic to {@code peer}; throws naming both ranks' hellos when none fits. */
    String choose(int peer) {
        Hello mine = hellos.get(rank);
        Hello theirs = hellos.get(peer);
        Hello lower = rank < peer ? mine : theirs;
        for (String name : lower.localityByProvider().keySet()) {
            VerbsProvider p = usable.get(name);
            String here = mine.localityByProvider().get(name);
            String there = theirs.localityByProvider().get(name);
            if (p != null && here != null && there != null && p.reaches(here, there)) return name;
        }
        throw new VerbsException("no provider connects rank " + rank + " (host " + mine.hostId() + ", providers "
                + mine.describeProviders() + ") with rank " + peer + " (host " + theirs.hostId() + ", providers "
                + theirs.describeProviders() + "); " + unusableHere());
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
        VerbsProvider provider = usable.get(name);
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
