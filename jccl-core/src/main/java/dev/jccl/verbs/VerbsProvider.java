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

    /**
     * Where this rank stands as this provider sees it, for {@link #reaches}: every rank publishes
     * it at init and every pair compares. One line of text (no line break), computed without
     * blocking. A network provider that reaches any peer has nothing to say: the empty default.
     */
    default String locality(Config config) {
        return "";
    }

    /**
     * Whether this provider can carry traffic between a rank that published {@code mine} and one
     * that published {@code theirs} (both from {@link #locality}). It must be pure and symmetric:
     * both ends of a pair decide alone and must reach the same answer. This is how the runtime
     * learns, for example, that shared memory reaches only ranks that share a host and its
     * /dev/shm, without naming any provider.
     */
    default boolean reaches(String mine, String theirs) {
        return true;
    }

    /**
     * The kind of path this provider offers between ranks that published {@code mine} and
     * {@code theirs}, asked only when {@link #reaches} said yes. Pure and symmetric, like
     * {@code reaches}. The default, {@link PathKind#OTHER}, keeps an unknown provider out of the way
     * unless nothing else reaches or JCCL_TRANSPORT names it first.
     */
    default PathKind pathKind(String mine, String theirs) {
        return PathKind.OTHER;
    }
}
