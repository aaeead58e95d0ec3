package dev.jccl.verbs.shm;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.PathKind;
import dev.jccl.verbs.Port;
import dev.jccl.verbs.PortState;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.VerbsProvider;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The shared-memory provider: ranks on one host, in one or several processes, moving data with one
 * memory copy per transfer through files mapped from JCCL_SHM_DIR.
 *
 * <p>One device, {@code shm0}, with one port. Its MTU is nominal: a transfer is one copy of the
 * whole message and is never fragmented. Its address is the host id (JCCL_HOST_ID, else
 * /etc/machine-id, else the host name).
 *
 * <p>It reaches a peer only when both name the same host AND their JCCL_SHM_DIR lies on the same
 * file system (its device number): two containers or network namespaces with the same host id but
 * a tmpfs each cannot map each other's files, and must fall back to a network provider rather than
 * fail at connect time.
 */
public final class ShmProvider implements VerbsProvider {
    public static final String NAME = "shm";
    static final String DEVICE_NAME = "shm0";
    static final int MTU_BYTES = 1 << 20;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Optional<String> unavailabilityCause(Config config) {
        String dirText = config.get(Knobs.SHM_DIR);
        Path dir = Path.of(dirText);
        if (!Files.isDirectory(dir)) {
            return Optional.of("JCCL_SHM_DIR " + dirText + " does not exist or is not a directory; point JCCL_SHM_DIR "
                    + "at a writable tmpfs directory such as /dev/shm");
        }
        if (!Files.isWritable(dir)) {
            return Optional.of("JCCL_SHM_DIR " + dirText + " is not writable by this user; point JCCL_SHM_DIR at a "
                    + "writable tmpfs directory such as /dev/shm");
        }
        return Optional.empty();
    }

    @Override
    public List<Device> devices(Config config) {
        if (unavailabilityCause(config).isPresent()) return List.of();
        String host = hostId(config);
        return List.of(new Device(NAME, DEVICE_NAME, host,
                List.of(new Port(1, PortState.ACTIVE, MTU_BYTES, "memory", host))));
    }

    @Override
    public DeviceContext open(Device device, Config config) {
        if (!NAME.equals(device.provider()) || !DEVICE_NAME.equals(device.name())) {
            throw new VerbsException("shm provider cannot open device " + device.provider() + "/" + device.name()
                    + "; its only device is " + DEVICE_NAME);
        }
        Optional<String> cause = unavailabilityCause(config);
        if (cause.isPresent()) throw new VerbsException("cannot open " + DEVICE_NAME + ": " + cause.get());
        return new ShmContext(device, config);
    }

    @Override
    public String locality(Config config) {
        return hostId(config) + " fs " + fileSystemOf(Path.of(config.get(Knobs.SHM_DIR)));
    }

    @Override
    public boolean reaches(String mine, String theirs) {
        return mine.equals(theirs);
    }

    @Override
    public PathKind pathKind(String mine, String theirs) {
        return PathKind.SHARED_MEMORY;
    }

    /** The device number of the file system holding {@code dir}, or its real path where that is unknown. */
    private static String fileSystemOf(Path dir) {
        try {
            return "dev " + Files.getAttribute(dir, "unix:dev");
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            try {
                return dir.toRealPath().toString();
            } catch (IOException notThere) {
                return dir.toAbsolutePath().normalize().toString();
            }
        }
    }

    static String hostId(Config config) {
        String configured = config.get(Knobs.HOST_ID);
        if (!configured.isBlank()) return configured.trim();
        try {
            String id = Files.readString(Path.of("/etc/machine-id")).trim();
            if (!id.isEmpty()) return id;
        } catch (IOException | SecurityException e) {
            // fall through to the host name
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
