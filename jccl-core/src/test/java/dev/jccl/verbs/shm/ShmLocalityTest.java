package dev.jccl.verbs.shm;

import dev.jccl.config.Config;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Shared memory reaches a peer only on the same host and the same file system under JCCL_SHM_DIR. */
@Tag("unit")
class ShmLocalityTest {
    private final ShmProvider shm = new ShmProvider();

    @Test
    void sameHostAndDirectoryReach() {
        Config c = Config.of(Map.of("JCCL_HOST_ID", "node-1", "JCCL_SHM_DIR", "/tmp"));
        assertTrue(shm.reaches(shm.locality(c), shm.locality(c)));
    }

    @Test
    void anotherHostIdDoesNotReach() {
        String a = shm.locality(Config.of(Map.of("JCCL_HOST_ID", "node-1", "JCCL_SHM_DIR", "/tmp")));
        String b = shm.locality(Config.of(Map.of("JCCL_HOST_ID", "node-2", "JCCL_SHM_DIR", "/tmp")));
        assertFalse(shm.reaches(a, b));
        assertFalse(shm.reaches(b, a));
    }

    @Test
    void anotherFileSystemDoesNotReachEvenWithTheSameHostId() throws Exception {
        Path tmp = Path.of("/tmp");
        Path devShm = Path.of("/dev/shm");
        assumeTrue(Files.isDirectory(devShm) && !Files.getAttribute(tmp, "unix:dev").equals(Files.getAttribute(devShm, "unix:dev")),
                "/tmp and /dev/shm are one file system here");
        String a = shm.locality(Config.of(Map.of("JCCL_HOST_ID", "node-1", "JCCL_SHM_DIR", "/tmp")));
        String b = shm.locality(Config.of(Map.of("JCCL_HOST_ID", "node-1", "JCCL_SHM_DIR", "/dev/shm")));
        assertNotEquals(a, b);
        assertFalse(shm.reaches(a, b));
    }

    @Test
    void localityIsOneLineNamingTheHost() {
        String l = shm.locality(Config.of(Map.of("JCCL_HOST_ID", "node-9", "JCCL_SHM_DIR", "/tmp")));
        assertTrue(l.startsWith("node-9 fs "), l);
        assertEquals(-1, l.indexOf('\n'));
    }
}
