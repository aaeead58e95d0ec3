package dev.jccl.verbs;

import java.util.List;

/**
 * A device as {@code ibv_devinfo} would list it.
 *
 * @param provider the provider name that owns it
 * @param name     device name, e.g. "shm0" or "lo"
 * @param guid     a stable identifier (host-unique for shm, address for tcp)
 * @param ports    the device's ports, numbered from 1
 */
public record Device(String provider, String name, String guid, List<Port> ports) {
    public Device {
        ports = List.copyOf(ports);
    }
}
