package dev.jccl.algo;

import java.util.Objects;

/**
 * Everything the cost model knows about the machine: the two link kinds (shared memory within a
 * host, network between hosts), the cost of reducing a byte on one core, the fixed cost of each
 * extra channel, and how many channels are worth trying.
 */
public record CostParams(LinkParams shm, LinkParams net, double reduceNsPerByte, double channelOverheadNs, int maxChannels) {
    public CostParams {
        Objects.requireNonNull(shm, "shm");
        Objects.requireNonNull(net, "net");
        if (!(reduceNsPerByte >= 0) || !(channelOverheadNs >= 0) || maxChannels < 1 || maxChannels > Channels.MAX_CHANNELS) {
            throw new IllegalArgumentException("cost parameters: reduce " + reduceNsPerByte + " ns/B, channel overhead "
                    + channelOverheadNs + " ns, max channels " + maxChannels + " (1.." + Channels.MAX_CHANNELS + ")");
        }
    }

    /**
     * Defaults for commodity hosts: shared memory at 2 us per message, 10 GB/s per host and 4 GB/s
     * per copying thread; a 10 GbE network at 30 us per message, 1.25 GB/s per NIC and 1 GB/s per
     * socket; a scalar sum at 4 GB/s per core; up to 4 channels.
     */
    public static CostParams defaults() {
        return new CostParams(LinkParams.of(2_000, 10, 4, 300), LinkParams.of(30_000, 1.25, 1, 2_000), 0.25, 1_000, 4);
    }

    LinkParams link(boolean crossesHosts) {
        return crossesHosts ? net : shm;
    }
}
