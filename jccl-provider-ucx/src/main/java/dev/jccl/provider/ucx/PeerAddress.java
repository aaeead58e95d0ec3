package dev.jccl.provider.ucx;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.verbs.VerbsException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;

/**
 * What {@code ConnectInfo.gid} carries for UCX: the host's identity, the owner's pid and its
 * worker address, as {@code host;pid;base64(address)}. The host and pid decide how a lost peer is
 * noticed: across hosts UCX reports it (error mode PEER); on one host, where UCX 1.13 offers its
 * shared-memory transports only without error handling, the peer's pid is watched instead.
 */
record PeerAddress(String host, long pid, byte[] workerAddress) {
    private static final String BOOT_ID = read("/proc/sys/kernel/random/boot_id");
    private static final String HOSTNAME = read("/proc/sys/kernel/hostname");

    static PeerAddress local(Config config, byte[] workerAddress) {
        String id = config.get(Knobs.HOST_ID);
        return new PeerAddress(id.isBlank() ? HOSTNAME + "/" + BOOT_ID : id, ProcessHandle.current().pid(), workerAddress);
    }

    String encode() {
        return host + ";" + pid + ";" + Base64.getEncoder().encodeToString(workerAddress);
    }

    static PeerAddress decode(String gid) {
        String[] parts = gid.split(";", -1);
        if (parts.length != 3) throw new VerbsException("not a UCX address (host;pid;worker): " + gid);
        try {
            return new PeerAddress(parts[0], Long.parseLong(parts[1]), Base64.getDecoder().decode(parts[2]));
        } catch (IllegalArgumentException e) {
            throw new VerbsException("malformed UCX address " + gid + ": " + e.getMessage(), e);
        }
    }

    boolean sameHostAs(PeerAddress other) {
        return host.equals(other.host);
    }

    private static String read(String file) {
        try {
            return Files.readString(Path.of(file)).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
