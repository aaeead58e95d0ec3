package dev.jccl.provider.ucx;

import dev.jccl.config.Config;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.PathKind;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.VerbsProvider;

import java.util.List;
import java.util.Optional;

/**
 * Verbs over UCX (libucp through FFM). UCX chooses per peer among the transports it finds: rc/dc/ud
 * verbs on InfiniBand and RoCE, cma and shared memory on one host, tcp elsewhere; {@code UCX_TLS}
 * and {@code UCX_NET_DEVICES} restrict it as they do for any UCX program. Every device listed opens
 * the same kind of context: UCX, not the device, decides the lanes of each connection, and the INFO
 * log names them.
 */
public final class UcxProvider implements VerbsProvider {
    static final String NAME = "ucx";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> unavailabilityCause(Config config) {
        return UcpLibrary.unavailabilityCause();
    }

    @Override
    public List<Device> devices(Config config) {
        if (UcpLibrary.unavailabilityCause().isPresent()) return List.of();
        return UcxDevices.list();
    }

    @Override
    public String locality(Config config) {
        if (UcpLibrary.unavailabilityCause().isPresent()) return "";
        return UcxTransports.locality(UcxDevices.resources());
    }

    /**
     * RDMA when both ends found an RDMA transport: then UCX is the network path jccl's tcp cannot
     * match. Otherwise UCX would only wrap shared memory or tcp, which jccl's own providers do faster
     * here, so it claims nothing and is used only when JCCL_TRANSPORT names it.
     */
    @Override
    public PathKind pathKind(String mine, String theirs) {
        return UcxTransports.hasRdma(mine) && UcxTransports.hasRdma(theirs) ? PathKind.RDMA : PathKind.OTHER;
    }

    @Override
    public DeviceContext open(Device device, Config config) {
        if (!NAME.equals(device.provider())) {
            throw new VerbsException("device " + device.name() + " belongs to provider '" + device.provider() + "', not ucx");
        }
        UcpLibrary.unavailabilityCause().ifPresent(cause -> {
            throw new VerbsException("ucx unavailable: " + cause);
        });
        return new UcxContext(device, config);
    }
}
