package dev.jccl.verbs.tcp;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.Port;
import dev.jccl.verbs.PortState;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Network interfaces as tcp devices: one per interface that is up and has an IPv4 address, port 1,
 * MTU from the interface, link rate from /sys/class/net/IF/speed when the kernel reports one.
 *
 * <p>JCCL_SOCKET_IFNAME picks the interface, by name ("eth0") or by one of its addresses
 * ("10.0.0.2"); empty picks loopback. The chosen device is listed first and is the address a
 * context listens on.
 */
final class TcpDevices {
    private TcpDevices() {}

    /** An interface and the IPv4 address a context on it binds to. */
    record Candidate(String name, Inet4Address address, int mtu, boolean loopback) {}

    static List<Candidate> scan() {
        List<Candidate> out = new ArrayList<>();
        try {
            for (NetworkInterface nif : NetworkInterface.networkInterfaces().toList()) {
                if (!nif.isUp()) continue;
                Optional<Inet4Address> v4 = nif.inetAddresses().filter(a -> a instanceof Inet4Address)
                        .map(a -> (Inet4Address) a).findFirst();
                if (v4.isPresent()) out.add(new Candidate(nif.getName(), v4.get(), nif.getMTU(), nif.isLoopback()));
            }
        } catch (SocketException e) {
            return List.of();
        }
        out.sort(Comparator.comparing(Candidate::name));
        return out;
    }

    /** The candidate JCCL_SOCKET_IFNAME selects, with the address to bind; empty when none matches. */
    static Optional<Candidate> chosen(Config config) {
        String want = config.get(Knobs.SOCKET_IFNAME).trim();
        List<Candidate> all = scan();
        if (want.isEmpty()) return all.stream().filter(Candidate::loopback).findFirst();
        Optional<Candidate> byName = all.stream().filter(c -> c.name().equals(want)).findFirst();
        if (byName.isPresent()) return byName;
        Inet4Address ip = literal(want);
        if (ip == null) return Optional.empty();
        return all.stream().filter(c -> hasAddress(c.name(), ip)).findFirst()
                .map(c -> new Candidate(c.name(), ip, c.mtu(), c.loopback()));
    }

    static Optional<String> unavailabilityCause(Config config) {
        List<Candidate> all = scan();
        if (all.isEmpty()) return Optional.of("no network interface is up with an IPv4 address");
        if (chosen(config).isPresent()) return Optional.empty();
        String want = config.get(Knobs.SOCKET_IFNAME);
        return Optional.of((want.isBlank() ? "no loopback interface is up" : "JCCL_SOCKET_IFNAME='" + want
                + "' names no interface that is up with an IPv4 address") + "; interfaces: "
                + all.stream().map(c -> c.name() + " " + c.address().getHostAddress()).toList());
    }

    static List<Device> list(Config config) {
        Optional<Candidate> first = chosen(config);
        List<Device> out = new ArrayList<>();
        first.ifPresent(c -> out.add(device(c)));
        for (Candidate c : scan()) {
            if (first.isEmpty() || !first.get().name().equals(c.name())) out.add(device(c));
        }
        return out;
    }

    static Device device(Candidate c) {
        String ip = c.address().getHostAddress();
        Port port = new Port(1, state(c.name()), c.mtu(), linkRate(c.name()), ip);
        return new Device(TcpProvider.NAME, c.name(), ip, List.of(port));
    }

    /** The address to bind for {@code device}: the one JCCL_SOCKET_IFNAME names if it is on this device. */
    static Optional<Inet4Address> bindAddress(Device device, Config config) {
        Optional<Candidate> chosen = chosen(config);
        if (chosen.isPresent() && chosen.get().name().equals(device.name())) return Optional.of(chosen.get().address());
        return scan().stream().filter(c -> c.name().equals(device.name())).map(Candidate::address).findFirst();
    }

    static String linkRate(String ifName) {
        try {
            long mbps = Long.parseLong(Files.readString(Path.of("/sys/class/net", ifName, "speed")).trim());
            if (mbps <= 0) return "unknown";
            return mbps % 1000 == 0 ? mbps / 1000 + " Gb/s" : mbps + " Mb/s";
        } catch (IOException | NumberFormatException | SecurityException e) {
            return "unknown";
        }
    }

    /** Loopback and virtual links report "unknown" operstate and carry traffic; "down" and the like do not. */
    static PortState state(String ifName) {
        try {
            String s = Files.readString(Path.of("/sys/class/net", ifName, "operstate")).trim();
            return s.equals("up") || s.equals("unknown") ? PortState.ACTIVE : PortState.DOWN;
        } catch (IOException | SecurityException e) {
            return PortState.ACTIVE; // listed interfaces are up; without sysfs there is nothing finer to say
        }
    }

    private static Inet4Address literal(String text) {
        try {
            return InetAddress.ofLiteral(text) instanceof Inet4Address v4 ? v4 : null;
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    private static boolean hasAddress(String ifName, Inet4Address ip) {
        try {
            NetworkInterface nif = NetworkInterface.getByName(ifName);
            return nif != null && nif.inetAddresses().anyMatch(ip::equals);
        } catch (SocketException e) {
            return false;
        }
    }
}
