package dev.jccl.comm;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The default of JCCL_SOCKET_IFNAME for a job. A job whose store is on a loopback address lives on
 * one host and keeps loopback. A job whose store is elsewhere spans hosts (or may: every rank must
 * be reachable from the others), so its network providers bind the interface that routes to the
 * store, which is the one the other hosts reach this host on; loopback there gave peers on other
 * hosts 127.0.0.1 to connect to. An explicit JCCL_SOCKET_IFNAME always wins.
 */
final class SocketInterface {
    /** What was chosen and why, for the INFO line. {@code address} is empty when the knob stays as it is. */
    record Choice(Optional<String> address, String why) {}

    /** The routing question: the local address the kernel would send from to reach {@code target}. */
    interface Routes {
        Optional<InetAddress> sourceFor(InetAddress target);
    }

    private SocketInterface() {}

    /** {@code config} with JCCL_SOCKET_IFNAME set to the address that routes to {@code storeHost}, where that applies. */
    static Config forStore(Config config, String storeHost) {
        Choice c = choose(config.get(Knobs.SOCKET_IFNAME), storeHost, SocketInterface::resolve, SocketInterface::kernelRoute,
                SocketInterface::interfaceName);
        Log.info(Subsys.NET, "socket interface: %s", c.why());
        return c.address().map(a -> config.with(Map.of(Knobs.SOCKET_IFNAME.name(), a))).orElse(config);
    }

    /** The decision alone, every lookup passed in, so it is tested without a second host. */
    static Choice choose(String configured, String storeHost, Function<String, Optional<InetAddress>> resolver,
                         Routes routes, Function<InetAddress, String> nameOf) {
        if (!configured.isBlank()) return new Choice(Optional.empty(), "JCCL_SOCKET_IFNAME=" + configured.trim() + " (set)");
        if (storeHost == null || storeHost.isBlank()) {
            return new Choice(Optional.empty(), "loopback: the store's address is not known here, so the job is taken to be on one host");
        }
        Optional<InetAddress> store = resolver.apply(storeHost.trim());
        if (store.isEmpty()) return new Choice(Optional.empty(), "loopback: the store host '" + storeHost + "' does not resolve");
        if (store.get().isLoopbackAddress()) {
            return new Choice(Optional.empty(), "loopback: the store is on " + store.get().getHostAddress() + ", a single-host job");
        }
        Optional<InetAddress> source = routes.sourceFor(store.get());
        if (source.isEmpty() || source.get().isLoopbackAddress() || source.get().isAnyLocalAddress()) {
            return new Choice(Optional.empty(), "loopback: no interface routes to the store at " + store.get().getHostAddress()
                    + "; set JCCL_SOCKET_IFNAME");
        }
        String ip = source.get().getHostAddress();
        return new Choice(Optional.of(ip), nameOf.apply(source.get()) + " " + ip + ": it routes to the store at "
                + store.get().getHostAddress() + ", so the job spans hosts (JCCL_SOCKET_IFNAME unset)");
    }

    private static Optional<InetAddress> resolve(String host) {
        try {
            return Optional.of(InetAddress.getByName(host));
        } catch (UnknownHostException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** A connected UDP socket learns its source address from the routing table and sends nothing. */
    private static Optional<InetAddress> kernelRoute(InetAddress target) {
        try (DatagramSocket s = new DatagramSocket()) {
            s.connect(new InetSocketAddress(target, 9));
            InetAddress local = s.getLocalAddress();
            return local == null ? Optional.empty() : Optional.of(local);
        } catch (IOException | SecurityException | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    private static String interfaceName(InetAddress address) {
        try {
            NetworkInterface nif = NetworkInterface.getByInetAddress(address);
            return nif == null ? "interface" : "interface " + nif.getName();
        } catch (SocketException e) {
            return "interface";
        }
    }
}
