package dev.jccl.algo;

/**
 * The α-β parameters of one kind of link, as the tuner's cost model uses them.
 *
 * @param alphaNs             latency of one message: post to completion at the receiver
 * @param betaNsPerByte       1/bandwidth of the link (for the network: of a host's NIC, shared by
 *                            every flow that leaves the host)
 * @param streamNsPerByte     1/bandwidth one channel reaches on its own (one copying thread, one
 *                            socket); more channels approach {@code betaNsPerByte}
 * @param chunkOverheadNs     CPU cost of posting and completing one chunk
 */
public record LinkParams(double alphaNs, double betaNsPerByte, double streamNsPerByte, double chunkOverheadNs) {
    public LinkParams {
        if (!(alphaNs >= 0) || !(betaNsPerByte > 0) || !(streamNsPerByte >= betaNsPerByte) || !(chunkOverheadNs >= 0)) {
            throw new IllegalArgumentException("link parameters need alpha >= 0, 0 < beta <= stream, overhead >= 0; got alpha "
                    + alphaNs + " ns, beta " + betaNsPerByte + " ns/B, stream " + streamNsPerByte + " ns/B, overhead " + chunkOverheadNs + " ns");
        }
    }

    /** Builds from latency and bandwidths in GB/s (1 GB/s = 1 byte/ns). */
    public static LinkParams of(double latencyNs, double linkGBps, double streamGBps, double chunkOverheadNs) {
        return new LinkParams(latencyNs, 1 / linkGBps, 1 / streamGBps, chunkOverheadNs);
    }
}
