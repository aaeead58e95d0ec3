package dev.jccl.verbs;

import dev.jccl.config.Config;

import java.util.List;
import java.util.Optional;

/**
 * A transport, found by name through {@link java.util.ServiceLoader} (see {@link Providers}).
 *
 * <p>Modelled on the libibverbs entry points: list devices, open one, then allocate a protection
 * domain and completion queues from the opened context. Thread-safe; none of the methods block for
 * longer than a local system call.
 */
public interface VerbsProvider {
    /** Short stable name used in JCCL_TRANSPORT and logs: "shm", "tcp". */
    String name();

    /** Empty when usable here; otherwise a sentence a user can act on (printed by devinfo). */
    Optional<String> unavailabilityCause(Config config);

    /** The devices this provider can open, each with its ports. Empty when unavailable. */
    List<Device> devices(Config config);

    /**
     * Opens a device for use. Failure (device gone, cannot bind, no permission) throws
     * {@link VerbsException} naming the device and the reason.
     */
    DeviceContext open(Device device, Config config);
}
