package dev.jccl.provider.ucx;

import dev.jccl.verbs.Device;
import dev.jccl.verbs.Port;
import dev.jccl.verbs.PortState;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The devices UCX finds, grouped as {@code ucx_info -d} groups them: one jccl device per UCX device
 * (memory, lo, mlx5_0:1), one port per transport on it. Listing opens a short-lived worker and
 * reads its resources, under whatever {@code UCX_TLS}/{@code UCX_NET_DEVICES} allow.
 */
final class UcxDevices {
    /**
     * UCX does not report an MTU through libucp; it cuts messages into its own eager fragments of
     * about 8 KiB (8185 B on tcp, 8256 B on posix here) and hands larger ones to rendezvous.
     */
    private static final int FRAGMENT_BYTES = 8192;

    private UcxDevices() {}

    /** Read once per process: UCX_TLS and UCX_NET_DEVICES, which decide them, are fixed at start. */
    private static volatile List<UcxTransports.Resource> resources;

    static List<UcxTransports.Resource> resources() {
        List<UcxTransports.Resource> r = resources;
        if (r != null) return r;
        UcpWorker w = new UcpWorker(0);
        String info;
        w.lock.lock();
        try {
            info = w.contextInfo();
            w.destroy();
        } finally {
            w.lock.unlock();
        }
        r = List.copyOf(UcxTransports.ofContext(info));
        resources = r;
        return r;
    }

    static List<Device> list() {
        Map<String, List<String>> byDevice = new LinkedHashMap<>();
        for (UcxTransports.Resource r : resources()) {
            byDevice.computeIfAbsent(r.device(), d -> new ArrayList<>()).add(r.transport());
        }
        List<Device> out = new ArrayList<>();
        for (Map.Entry<String, List<String>> e : byDevice.entrySet()) {
            List<Port> ports = new ArrayList<>();
            int n = 1;
            for (String tl : e.getValue()) {
                String kind = UcxTransports.isRdma(tl) ? "RDMA" : tl.equals("tcp") ? "socket" : "host memory";
                ports.add(new Port(n++, PortState.ACTIVE, FRAGMENT_BYTES, tl + " (" + kind + ")", e.getKey()));
            }
            out.add(new Device(UcxProvider.NAME, e.getKey(), "libucp " + UcpLibrary.version(), ports));
        }
        return out;
    }
}
