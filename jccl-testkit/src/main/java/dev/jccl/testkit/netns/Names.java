package dev.jccl.testkit.netns;

/**
 * Every name the harness gives a namespace, link, route or table, all under one prefix, so a sweep
 * finds what a killed run left behind. Host {@code i} is namespace jcclt-h{i} with interface
 * jcclt-h{i} at 10.213.{i+1}.2/24; its peer end jcclt-r{i} sits in the router namespace jcclt-r at
 * 10.213.{i+1}.1. 10.213.0.0/16 is private space that nothing else on a test machine uses; the
 * harness checks that before it starts.
 */
final class Names {
    static final String PREFIX = "jcclt-";
    static final String ROUTER = PREFIX + "r";
    static final String SUBNET = "10.213.0.0/16";
    static final String LOSS_TABLE_PREFIX = PREFIX + "loss-h";

    private Names() {}

    static String hostNs(int host) {
        return PREFIX + "h" + host;
    }

    static String hostIf(int host) {
        return PREFIX + "h" + host;
    }

    static String routerIf(int host) {
        return PREFIX + "r" + host;
    }

    static String hostAddress(int host) {
        return "10.213." + (host + 1) + ".2";
    }

    static String routerAddress(int host) {
        return "10.213." + (host + 1) + ".1";
    }

    /** The host name in the host's UTS namespace, which is also how jccl groups ranks by host. */
    static String hostName(int host) {
        return PREFIX + "host" + host;
    }

    static String lossTable(int host) {
        return LOSS_TABLE_PREFIX + host;
    }
}
