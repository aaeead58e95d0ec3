package dev.jccl.testkit.netns;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The link of one host to the router: a veth pair, jcclt-h{i} in the host, jcclt-r{i} in the router.
 * Shaping applies to both directions: a token bucket on each end's egress, loss as an nft rule in
 * the router's forward path matching either direction.
 */
public final class Link {
    private final int host;
    private final Path runDir;

    Link(int host, Path runDir) {
        this.host = host;
        this.runDir = runDir;
    }

    /** A token-bucket rate on both ends, e.g. "1gbit" or "100mbit"; replaces any earlier one. */
    public Link rate(String rate) {
        String burst = burstFor(rate);
        Cmd.mustIn(Names.hostNs(host), "tc", "qdisc", "replace", "dev", Names.hostIf(host), "root", "tbf", "rate", rate,
                "burst", burst, "latency", "50ms");
        Cmd.mustIn(Names.ROUTER, "tc", "qdisc", "replace", "dev", Names.routerIf(host), "root", "tbf", "rate", rate,
                "burst", burst, "latency", "50ms");
        return this;
    }

    /** Drops {@code percent} of the packets each way (nft numgen random), 0 to stop; resolution 0.01 %. */
    public Link loss(double percent) {
        String table = Names.lossTable(host);
        Cmd.run("ip", "netns", "exec", Names.ROUTER, "nft", "delete", "table", "inet", table);
        if (percent <= 0) return this;
        long per10k = Math.round(percent * 100);
        String rif = Names.routerIf(host);
        String rules = String.format(Locale.ROOT, """
                table inet %s {
                  chain forward {
                    type filter hook forward priority 0; policy accept;
                    iifname "%s" numgen random mod 10000 < %d drop
                    oifname "%s" numgen random mod 10000 < %d drop
                  }
                }
                """, table, rif, per10k, rif, per10k);
        Cmd.mustIn(Names.ROUTER, "nft", "-f", writeRules(rules));
        return this;
    }

    /** The MTU of both ends of the link (a veth starts at 1500), e.g. 1400 for a host configured unlike the others. */
    public Link mtu(int mtu) {
        Cmd.mustIn(Names.hostNs(host), "ip", "link", "set", "dev", Names.hostIf(host), "mtu", Integer.toString(mtu));
        Cmd.mustIn(Names.ROUTER, "ip", "link", "set", "dev", Names.routerIf(host), "mtu", Integer.toString(mtu));
        return this;
    }

    /** The cable pulled: the router's end goes down, and with it the host's carrier. */
    public Link down() {
        Cmd.mustIn(Names.ROUTER, "ip", "link", "set", Names.routerIf(host), "down");
        return this;
    }

    public Link up() {
        Cmd.mustIn(Names.ROUTER, "ip", "link", "set", Names.routerIf(host), "up");
        return this;
    }

    /** No rate limit and no loss. */
    public Link clear() {
        Cmd.run("ip", "netns", "exec", Names.hostNs(host), "tc", "qdisc", "del", "dev", Names.hostIf(host), "root");
        Cmd.run("ip", "netns", "exec", Names.ROUTER, "tc", "qdisc", "del", "dev", Names.routerIf(host), "root");
        return loss(0);
    }

    /**
     * What the shaping did so far, e.g. "host: Sent 123 bytes 45 pkt (dropped 0, overlimits 6 requeues 0) backlog 0b 0p;
     * router: ...": tc's counters of both ends' root qdisc, for a benchmark to print beside its figures.
     */
    public String stats() {
        return "host: " + counters(Cmd.mustIn(Names.hostNs(host), "tc", "-s", "qdisc", "show", "dev", Names.hostIf(host), "root"))
                + "; router: " + counters(Cmd.mustIn(Names.ROUTER, "tc", "-s", "qdisc", "show", "dev", Names.routerIf(host), "root"));
    }

    /** The Sent and backlog lines of tc -s, joined. */
    private static String counters(String tcOutput) {
        StringBuilder b = new StringBuilder();
        for (String line : tcOutput.split("\\R")) {
            String t = line.trim();
            if (t.startsWith("Sent") || t.startsWith("backlog")) b.append(b.isEmpty() ? "" : " ").append(t);
        }
        return b.toString();
    }

    /** TCP counters of the host's network namespace that tell a shaped link from a lossy one (retransmits, timeouts, loss probes), by name. */
    public Map<String, Long> tcpCounters() {
        String out = Cmd.mustIn(Names.hostNs(host), "nstat", "-asz", "TcpRetransSegs", "TcpExtTCPTimeouts", "TcpExtTCPLossProbes");
        Map<String, Long> m = new TreeMap<>();
        for (String line : out.split("\\R")) {
            String[] f = line.trim().split("\\s+");
            if (f.length >= 2 && f[0].startsWith("Tcp")) m.put(f[0], Long.parseLong(f[1]));
        }
        return m;
    }

    /** Burst of at least one 4 ms tick of the rate (timer granularity), never under 64 KiB. */
    public static String burstFor(String rate) {
        String r = rate.toLowerCase(Locale.ROOT);
        double bits = Double.parseDouble(r.replaceAll("[a-z]+$", ""));
        if (r.endsWith("gbit")) bits *= 1e9;
        else if (r.endsWith("mbit")) bits *= 1e6;
        else if (r.endsWith("kbit")) bits *= 1e3;
        long bytes = Math.max(64 * 1024, (long) (bits / 8 / 250));
        return bytes + "b";
    }

    private String writeRules(String rules) {
        try {
            Path f = runDir.resolve(Names.lossTable(host) + ".nft");
            Files.writeString(f, rules);
            return f.toString();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
