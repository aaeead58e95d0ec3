package dev.jccl.comm;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.ActivityWait;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.PathKind;
import dev.jccl.verbs.ProtectionDomain;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.VerbsProvider;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Which provider carries the traffic to each peer, and the opened device, protection domain and
 * index of each provider in use (opened on first need).
 *
 * <p>The choice is made among providers that both ranks can use and that say they reach between
 * their localities ({@link VerbsProvider#reaches}). When the lower rank's JCCL_TRANSPORT names an
 * order, the first of them in it wins; otherwise the one with the best {@link PathKind}, ties going
 * to name order. Both ends compute it from the hellos exchanged at init, and taking one end's order
 * makes them agree even when their orders differ. By default that is shm within a host, an RDMA
 * provider across hosts where both ends have one, and tcp elsewhere; the runtime knows none of those
 * names, so a provider in another module plugs in without touching this class.
 */
final class Transports implements AutoCloseable {
    record Endpoint(int index, VerbsProvider provider, DeviceContext context, ProtectionDomain pd) {}

    private final Config config;
    private final int rank;
    private final List<Hello> hellos;
    private final boolean socketWait; // JCCL_TCP_SOCKET_WAIT
    private final Map<String, VerbsProvider> usable = new LinkedHashMap<>();
    private final Map<String, Endpoint> open = new LinkedHashMap<>();
    /** Some opened context moves data on threads of its own: read on every caller's wait, so kept, not derived. */
    private volatile boolean threadsBeside;
    private final List<Endpoint> byIndex = new ArrayList<>();
    private final Map<Integer, String> chosen = new HashMap<>();
    /** Where {@link #allocate} takes memory when no peer shares this host; made on first need. */
    private Arena privateArena;

    Transports(Config config, int rank, List<Hello> hellos) {
        this(config, rank, hellos, Providers.allowed(config));
    }

    /** With the providers usable here given, for tests of the choice. */
    Transports(Config config, int rank, List<Hello> hellos, List<VerbsProvider> usableHere) {
        this.config = config;
        this.rank = rank;
        this.hellos = List.copyOf(hellos);
        this.socketWait = config.get(Knobs.TCP_SOCKET_WAIT);
        for (VerbsProvider p : usableHere) usable.put(p.name(), p);
    }

    /** The locality of each provider usable here and allowed by JCCL_TRANSPORT, in preference order. */
    static Map<String, String> localitiesHere(Config config) {
        Map<String, String> out = new LinkedHashMap<>();
        for (VerbsProvider p : Providers.allowed(config)) out.put(p.name(), p.locality(config));
        return out;
    }

    /** The provider for traffic to {@code peer}; throws naming both ranks' hellos when none fits. */
    synchronized String choose(int peer) {
        // Every channel and log line asks again; the answer cannot change, and is logged once a peer.
        String name = chosen.get(peer);
        if (name == null) {
            name = decide(peer);
            chosen.put(peer, name);
        }
        return name;
    }

    private String decide(int peer) {
        Hello mine = hellos.get(rank);
        Hello theirs = hellos.get(peer);
        Hello lower = rank < peer ? mine : theirs;
        String best = null;
        PathKind bestKind = null;
        for (String name : lower.localityByProvider().keySet()) {
            VerbsProvider p = usable.get(name);
            String here = mine.localityByProvider().get(name);
            String there = theirs.localityByProvider().get(name);
            if (p == null || here == null || there == null || !p.reaches(here, there)) continue;
            if (lower.namedOrder()) {
                Log.info(Subsys.INIT, "rank %d -> rank %d: %s, first in rank %d's JCCL_TRANSPORT that reaches", rank, peer, name,
                        Math.min(rank, peer));
                return name;
            }
            // Ask with the lower rank's locality first so both ends ask the same question.
            PathKind kind = rank < peer ? p.pathKind(here, there) : p.pathKind(there, here);
            if (bestKind == null || kind.compareTo(bestKind) < 0) {
                best = name;
                bestKind = kind;
            }
        }
        if (best != null) {
            Log.info(Subsys.INIT, "rank %d -> rank %d: %s, the best path kind that reaches (%s)", rank, peer, best, bestKind);
            return best;
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

    /**
     * Where a caller driving progress may sleep between polls: the opened context's {@link ActivityWait}
     * when exactly one is open (tcp alone), else null (shm's progress is noticed only by polling).
     * Every finished operation asks, so with JCCL_TCP_SOCKET_WAIT off (the default) it answers
     * before taking the lock.
     */
    ActivityWait activityWait() {
        if (!socketWait) return null;
        synchronized (this) {
            return byIndex.size() == 1 ? byIndex.get(0).context().activityWait() : null;
        }
    }

    /** Whether some opened context moves data on threads of its own ({@link DeviceContext#movesDataOnOwnThreads}). */
    boolean threadsBeside() {
        return threadsBeside;
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
        if (ctx.movesDataOnOwnThreads()) threadsBeside = true;
        return e;
    }

    /**
     * Memory for callers' buffers ({@code Communicator.allocate}): from the protection domain of the
     * provider that carries traffic to the first peer on this host, registered there once with
     * REMOTE_READ where peers can map it (shm), so sends from it go as direct reads. Elsewhere (no
     * peer on this host, or a provider without shared memory) plain memory: still valid for every
     * call, only copied as any private buffer is. Freed when the communicator closes.
     */
    synchronized MemorySegment allocate(long bytes) {
        String host = hellos.get(rank).hostId();
        for (int peer = 0; peer < hellos.size(); peer++) {
            if (peer == rank || !hellos.get(peer).hostId().equals(host)) continue;
            ProtectionDomain pd = endpointFor(peer).pd();
            MemorySegment m = pd.allocate(bytes);
            if (pd.shareable(m)) pd.register(m, EnumSet.of(Access.REMOTE_READ)); // kept until the domain closes
            return m;
        }
        if (privateArena == null) privateArena = Arena.ofShared();
        return privateArena.allocate(Math.max(bytes, 1), 64).asSlice(0, bytes);
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
        if (privateArena != null) privateArena.close();
        privateArena = null;
    }
}
