package dev.jccl.plan;

/**
 * The hosts' CPU as a limit on an allreduce, for ranks whose data path runs on CPU cores (tcp and shm
 * copies, system calls, reductions): the CPU time spent per byte a rank sends, counting the sender's and
 * the receiver's work, measured on the spot as alpha is (CPU time of a run over the bytes it sent), and
 * the cores each host gives its ranks. An allreduce then takes at least the bytes a host's ranks send
 * times that cost over those cores. On GPUs and RDMA NICs the cost is near zero; over TCP on few cores
 * it can exceed the link time, as on the namespace cluster, where every host shares one machine's cores.
 *
 * @param nsPerByteSent CPU ns per byte sent by a rank, all threads and both ends
 * @param coresPerHost  cores available to one host's ranks (fractional where hosts share a machine)
 */
public record HostCpu(double nsPerByteSent, double coresPerHost) {
    public HostCpu {
        if (!(nsPerByteSent >= 0) || Double.isInfinite(nsPerByteSent)) {
            throw new IllegalArgumentException("host cpu: ns per byte must be >= 0, got " + nsPerByteSent);
        }
        if (!(coresPerHost > 0) || Double.isInfinite(coresPerHost)) {
            throw new IllegalArgumentException("host cpu: cores per host must be > 0, got " + coresPerHost);
        }
    }

    /** The cost per byte from a measured run: CPU time of all its ranks over the bytes they sent. */
    public static double nsPerByte(double cpuNs, double bytesSent) {
        if (!(bytesSent > 0)) throw new IllegalArgumentException("host cpu: bytes sent must be > 0, got " + bytesSent);
        return cpuNs / bytesSent;
    }
}
