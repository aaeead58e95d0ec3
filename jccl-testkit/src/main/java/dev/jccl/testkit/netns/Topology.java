package dev.jccl.testkit.netns;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Builds the namespaces, links, addresses and routes of a cluster. Both ends of every veth are
 * created straight inside their namespaces, so no link ever sits in the root namespace, and hosts
 * get a route to the test subnet only: nothing a rank sends can leave the cluster.
 */
final class Topology {
    private Topology() {}

    static void build(int hosts, Path runDir) {
        Cmd.must("ip", "route", "add", "blackhole", Names.SUBNET);
        Cmd.must("ip", "netns", "add", Names.ROUTER);
        Cmd.must("ip", "-n", Names.ROUTER, "link", "set", "lo", "up");
        Cmd.mustIn(Names.ROUTER, "sysctl", "-qw", "net.ipv4.ip_forward=1");
        StringBuilder etcHosts = new StringBuilder("127.0.0.1 localhost\n");
        for (int h = 0; h < hosts; h++) {
            String ns = Names.hostNs(h);
            Cmd.must("ip", "netns", "add", ns);
            Cmd.must("ip", "-n", ns, "link", "set", "lo", "up");
            Cmd.must("ip", "link", "add", Names.hostIf(h), "netns", ns, "type", "veth", "peer", "name", Names.routerIf(h),
                    "netns", Names.ROUTER);
            Cmd.must("ip", "-n", ns, "addr", "add", Names.hostAddress(h) + "/24", "dev", Names.hostIf(h));
            Cmd.must("ip", "-n", Names.ROUTER, "addr", "add", Names.routerAddress(h) + "/24", "dev", Names.routerIf(h));
            Cmd.must("ip", "-n", ns, "link", "set", Names.hostIf(h), "up");
            Cmd.must("ip", "-n", Names.ROUTER, "link", "set", Names.routerIf(h), "up");
            Cmd.must("ip", "-n", ns, "route", "add", Names.SUBNET, "via", Names.routerAddress(h));
            etcHosts.append(Names.hostAddress(h)).append(' ').append(Names.hostName(h)).append('\n');
        }
        try {
            Files.writeString(runDir.resolve("hosts"), etcHosts);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
