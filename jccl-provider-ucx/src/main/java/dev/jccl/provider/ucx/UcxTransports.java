package dev.jccl.provider.ucx;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads transports and devices out of UCX's own listings: the resources of a context
 * ({@code ucp_context_print_info}, what {@code ucx_info -d} shows per device) and the lanes of an
 * endpoint ({@code ucp_ep_print_info}), which is what a connection really uses.
 */
final class UcxTransports {
    /** One transport on one device, e.g. tcp on lo, rc_mlx5 on mlx5_0:1, posix on memory. */
    record Resource(String transport, String device) {}

    private static final Pattern RESOURCE = Pattern.compile("resource\\s+\\d+\\s*:.*--\\s+(\\S+)/(\\S+)");
    private static final Pattern LANE = Pattern.compile("lane\\[\\d+]:\\s+\\d+:(\\S+)/(\\S+?)\\.\\d+\\s");

    private UcxTransports() {}

    static List<Resource> ofContext(String info) {
        List<Resource> out = new ArrayList<>();
        Matcher m = RESOURCE.matcher(info);
        while (m.find()) out.add(new Resource(m.group(1), m.group(2)));
        return out;
    }

    /** "tcp lo", "sysv/posix/cma memory", "rc_mlx5 mlx5_0:1": the endpoint's transports, then devices. */
    static String ofEndpoint(String info) {
        Set<String> tls = new LinkedHashSet<>();
        Set<String> devices = new LinkedHashSet<>();
        Matcher m = LANE.matcher(info);
        while (m.find()) {
            tls.add(m.group(1));
            devices.add(m.group(2));
        }
        if (tls.isEmpty()) return "(lanes unknown)";
        return String.join("/", tls) + " " + String.join(",", devices);
    }

    /** Whether a transport is an RDMA one (InfiniBand/RoCE verbs), what makes UCX the better network path. */
    static boolean isRdma(String transport) {
        return transport.startsWith("rc") || transport.startsWith("dc") || transport.startsWith("ud");
    }

    /**
     * The locality the provider publishes: {@code "rdma rc_mlx5,dc_mlx5"} when UCX found RDMA
     * transports here, else empty. Only whether both ends have RDMA matters to the choice; the names
     * are there for the error and log lines that print localities.
     */
    static String locality(List<Resource> resources) {
        Set<String> rdma = new LinkedHashSet<>();
        for (Resource r : resources) {
            if (isRdma(r.transport())) rdma.add(r.transport());
        }
        return rdma.isEmpty() ? "" : RDMA_PREFIX + String.join(",", rdma);
    }

    static boolean hasRdma(String locality) {
        return locality.startsWith(RDMA_PREFIX);
    }

    private static final String RDMA_PREFIX = "rdma ";
}
