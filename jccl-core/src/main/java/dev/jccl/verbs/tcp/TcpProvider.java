package dev.jccl.verbs.tcp;

import dev.jccl.config.Config;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.PathKind;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.VerbsProvider;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.List;
import java.util.Optional;

/**
 * The NET/Socket transport: verbs over TCP between any reachable peers. Each queue pair spreads over
 * JCCL_QPS_PER_CONNECTION sockets (each carries both directions unless JCCL_TCP_SHARED_SOCKETS=0), receiver threads place payload straight into
 * registered memory, and every connection proves the job token first.
 */
public final class TcpProvider implements VerbsProvider {
    static final String NAME = "tcp";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> unavailabilityCause(Config config) {
        return TcpDevices.unavailabilityCause(config);
    }

    @Override
    public PathKind pathKind(String mine, String theirs) {
        return PathKind.SOCKET;
    }

    @Override
    public List<Device> devices(Config config) {
        return TcpDevices.list(config);
    }

    /** The address this rank's tcp context listens on, so that the pair check below sees it. */
    @Override
    public String locality(Config config) {
        return TcpDevices.chosen(config).map(c -> c.address().getHostAddress()).orElse("");
    }

    /**
     * A rank listening on loopback and one listening on a network address cannot be on the same
     * footing: one of them chose loopback in a job that spans hosts (JCCL_SOCKET_IFNAME=lo on one
     * host), and its peers would connect to their own 127.0.0.1. Saying so at set-up names both
     * ranks and addresses instead of a refused connection later.
     */
    @Override
    public boolean reaches(String mine, String theirs) {
        if (mine.isEmpty() || theirs.isEmpty()) return true;
        return isLoopback(mine) == isLoopback(theirs);
    }

    private static boolean isLoopback(String ip) {
        try {
            return InetAddress.ofLiteral(ip).isLoopbackAddress();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public DeviceContext open(Device device, Config config) {
        if (!NAME.equals(device.provider())) {
            throw new VerbsException("device " + device.name() + " belongs to provider '" + device.provider() + "', not tcp");
        }
        Inet4Address address = TcpDevices.bindAddress(device, config).orElseThrow(() -> new VerbsException(
                "tcp device " + device.name() + " is gone or has no IPv4 address; interfaces now: " + TcpDevices.scan()));
        return new TcpContext(device, address, config);
    }
}
