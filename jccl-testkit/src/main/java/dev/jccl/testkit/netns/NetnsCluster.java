package dev.jccl.testkit.netns;

import dev.jccl.testkit.jvm.JavaCommand;
import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * H hosts on this machine, each a network namespace with a host name and a /dev/shm of its own,
 * joined by veth pairs to a router namespace on 10.213.0.0/16 (see {@link Names}). Processes run
 * on a host through {@link #exec}: {@code ip netns exec} plus a private UTS and mount namespace, in
 * which the host name is set, /dev/shm is a fresh tmpfs and /etc/hosts names every host. So two
 * hosts share neither loopback nor shared memory, as real ones do.
 *
 * <p>Safety: while a cluster lives, the root namespace holds a blackhole route for the test subnet,
 * so nothing there can reach (or leak onto a real network towards) a test address; nothing in the
 * root namespace ever connects to one. Results come back through the processes' output. Creation
 * starts with a sweep of everything a killed run left, {@link #close()} (also run by a shutdown
 * hook) removes everything, and one cluster at a time runs per machine (a file lock).
 */
public final class NetnsCluster implements AutoCloseable {
    public static final int MAX_HOSTS = 4;

    private final int hosts;
    private final Path runDir;
    private final ClusterLock lock;
    private final Thread hook = new Thread(this::removeAll, "jcclt-cleanup");
    private boolean closed;

    private NetnsCluster(int hosts, Path runDir, ClusterLock lock) {
        this.hosts = hosts;
        this.runDir = runDir;
        this.lock = lock;
    }

    /** Why no cluster can be built here (not root, no ip or nft, ...), or empty when one can. */
    public static Optional<String> unavailable() {
        return Preflight.unavailable();
    }

    /** Skips the calling test, with one loud line on stderr, where no cluster can be built. */
    public static void assumeAvailable() {
        Optional<String> why = unavailable();
        if (why.isPresent()) System.err.println("SKIPPING network-namespace cluster tests: " + why.get());
        Assumptions.assumeTrue(why.isEmpty(), () -> "network-namespace cluster unavailable: " + why.orElse(""));
    }

    /** Builds {@code hosts} hosts (2 to 4), after sweeping what an earlier run left. */
    public static NetnsCluster start(int hosts) {
        if (hosts < 2 || hosts > MAX_HOSTS) throw new IllegalArgumentException("hosts " + hosts + " outside [2, " + MAX_HOSTS + "]");
        Preflight.unavailable().ifPresent(why -> {
            throw new IllegalStateException("no network-namespace cluster here: " + why);
        });
        ClusterLock lock = ClusterLock.acquire();
        NetnsCluster c;
        try {
            List<String> stale = Sweep.all();
            if (!stale.isEmpty()) System.err.println("netns cluster: removed what an earlier run left: " + stale);
            c = new NetnsCluster(hosts, Files.createTempDirectory(Sweep.RUN_ROOT, Names.PREFIX + "run"), lock);
        } catch (IOException | RuntimeException e) {
            lock.close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
        Runtime.getRuntime().addShutdownHook(c.hook);
        try {
            Topology.build(hosts, c.runDir);
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
        return c;
    }

    public int hosts() {
        return hosts;
    }

    /** Host {@code host}'s address on its link, e.g. the --master-addr of a job whose node 0 it is. */
    public String address(int host) {
        return Names.hostAddress(check(host));
    }

    public String hostName(int host) {
        return Names.hostName(check(host));
    }

    /** The network namespace of {@code host}, for commands that need only its network. */
    public String namespace(int host) {
        return Names.hostNs(check(host));
    }

    /** Shaping and state of {@code host}'s link to the router. */
    public Link link(int host) {
        return new Link(check(host), runDir);
    }

    /**
     * The prefix that runs a command on {@code host} (for {@code JavaCommand.prefixedBy}): in its
     * network namespace, with its own host name, /dev/shm and /etc/hosts.
     */
    public List<String> exec(int host) {
        check(host);
        String script = "hostname \"$0\" && mount -t tmpfs -o size=2g,mode=1777 " + Names.PREFIX + "shm /dev/shm"
                + " && mount --bind \"$1\" /etc/hosts && shift && exec \"$@\"";
        return List.of("ip", "netns", "exec", Names.hostNs(host), "unshare", "--uts", "--mount", "--propagation", "private",
                "sh", "-c", script, Names.hostName(host), runDir.resolve("hosts").toString());
    }

    /** The prefix that runs a command in the router namespace (e.g. a delay proxy). */
    public List<String> execInRouter() {
        return List.of("ip", "netns", "exec", Names.ROUTER);
    }

    /**
     * The command of a {@link DelayProxy} in the router namespace: it listens on the router's
     * address on {@code host}'s link, port {@code port}, and forwards to {@code host}'s
     * {@code targetPort}, each way {@code delayMs} +- {@code jitterMs} later; start it as a
     * {@code ChildJvm} and wait for its "PROXY listening" line. Other hosts reach it at
     * {@link #routerAddress}{@code (host)}.
     */
    public JavaCommand delayProxyCommand(int host, int port, int targetPort, long delayMs, long jitterMs) {
        return JavaCommand.main(DelayProxy.class).fastStart().prefixedBy(execInRouter()).args(routerAddress(host),
                Integer.toString(port), address(host), Integer.toString(targetPort), Long.toString(delayMs), Long.toString(jitterMs),
                "600");
    }

    /** First port of the fixed tcp listener ports that {@link #dataProxyCommand} relays; local rank l uses this + l. */
    public static final int DATA_PORT_BASE = 31000;

    /**
     * The command of one {@link DelayProxies} JVM in the router namespace that carries a job's tcp
     * data: for every host h and local rank l it listens on the router's address on h's link, port
     * {@link #DATA_PORT_BASE} + l, and forwards to h's address, same port, {@code delayMs} later each
     * way. Each rank then advertises {@link #dataProxyAddress}(h) : that port (JCCL_TCP_ADVERTISE), so
     * a peer's connection crosses its own link to the router and h's link from it, as before, with the
     * delay added once per direction. Start it as a {@code ChildJvm}, wait for "PROXIES ready".
     */
    public JavaCommand dataProxyCommand(int ranksPerHost, long delayMs, long jitterMs) {
        List<String> args = new ArrayList<>(List.of(Long.toString(delayMs), Long.toString(jitterMs), "900"));
        for (int h = 0; h < hosts; h++) {
            for (int l = 0; l < ranksPerHost; l++) {
                int port = DATA_PORT_BASE + l;
                args.add(routerAddress(h) + ":" + port + "=" + address(h) + ":" + port);
            }
        }
        return JavaCommand.main(DelayProxies.class).fastStart().prefixedBy(execInRouter()).args(args.toArray(String[]::new));
    }

    /** The address the ranks of {@code host} advertise for their listeners when a {@link #dataProxyCommand} relays them. */
    public String dataProxyAddress(int host) {
        return routerAddress(host);
    }

    /**
     * The TCP congestion control of every host and the router (a new namespace starts with the
     * root's, e.g. bbr), e.g. "cubic"; returns what host 0 then uses.
     */
    public String congestionControl(String algorithm) {
        for (int h = 0; h < hosts; h++) Cmd.mustIn(Names.hostNs(h), "sysctl", "-qw", "net.ipv4.tcp_congestion_control=" + algorithm);
        Cmd.mustIn(Names.ROUTER, "sysctl", "-qw", "net.ipv4.tcp_congestion_control=" + algorithm);
        return congestionControl();
    }

    /** The TCP congestion control host 0 uses. */
    public String congestionControl() {
        return Cmd.mustIn(Names.hostNs(0), "sysctl", "-n", "net.ipv4.tcp_congestion_control").trim();
    }

    /** The router's address on {@code host}'s link. */
    public String routerAddress(int host) {
        return Names.routerAddress(check(host));
    }

    /** SIGKILL to every process on {@code host}, as when the machine dies; returns how many. */
    public int killHost(int host) {
        return Sweep.killAllIn(Names.hostNs(check(host)));
    }

    /** The processes now running on {@code host}. */
    public List<Long> pids(int host) {
        return Sweep.pidsIn(Names.hostNs(check(host)));
    }

    /** A folder for this cluster's files, removed with it. */
    public Path runDir() {
        return runDir;
    }

    @Override
    public synchronized void close() {
        if (closed) return;
        closed = true;
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running this
        }
        removeAll();
    }

    private void removeAll() {
        try {
            Sweep.all();
            List<String> left = Sweep.namespaces();
            if (!left.isEmpty()) System.err.println("netns cluster: could not remove " + left);
        } finally {
            lock.close();
        }
    }

    private int check(int host) {
        if (host < 0 || host >= hosts) throw new IllegalArgumentException("host " + host + " outside [0, " + hosts + ")");
        return host;
    }
}
