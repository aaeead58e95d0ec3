package dev.jccl.verbs.shm;

import dev.jccl.config.Config;
import dev.jccl.testkit.PairBed;
import dev.jccl.testkit.PrivateShmDir;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.PortState;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.VerbsProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Discovery, the device listing, unavailability, and the files a context makes and removes. */
@Timeout(30)
@Tag("unit")
class ShmProviderTest {

    @Test
    void foundByNameWithOneActiveDevice() throws Exception {
        Path dir = Files.createTempDirectory(PrivateShmDir.root(), "jccl-test-");
        try {
            Config config = Config.of(Map.of("JCCL_SHM_DIR", dir.toString(), "JCCL_HOST_ID", "host-42"));
            VerbsProvider shm = Providers.require("shm");
            assertEquals("shm", shm.name());
            assertTrue(shm.unavailabilityCause(config).isEmpty());
            Device d = shm.devices(config).getFirst();
            assertEquals("shm0", d.name());
            assertEquals(1, d.ports().size());
            assertEquals(PortState.ACTIVE, d.ports().getFirst().state());
            assertEquals("host-42", d.ports().getFirst().address());
            assertTrue(d.ports().getFirst().mtu() > 0);
        } finally {
            PrivateShmDir.deleteTree(dir);
        }
    }

    @Test
    void missingDirectoryMakesItUnavailable() {
        Config config = Config.of(Map.of("JCCL_SHM_DIR", "/nonexistent/jccl-shm-dir"));
        VerbsProvider shm = Providers.require("shm");
        String cause = shm.unavailabilityCause(config).orElseThrow();
        assertTrue(cause.contains("JCCL_SHM_DIR") && cause.contains("/nonexistent/jccl-shm-dir"), cause);
        assertTrue(shm.devices(config).isEmpty());
        Device d = new Device("shm", "shm0", "h", java.util.List.of());
        assertThrows(VerbsException.class, () -> shm.open(d, config));
    }

    @Test
    void contextFilesAreNamedByPidAndRemovedOnClose() throws Exception {
        try (PairBed bed = PairBed.open("shm", Map.of(), 4)) {
            bed.pdA.allocate(1000);
            long pid = ProcessHandle.current().pid();
            try (var files = Files.list(bed.dir.path())) {
                assertTrue(files.map(p -> p.getFileName().toString())
                        .allMatch(n -> n.startsWith("jccl-" + pid + "-")), "file names carry the pid");
            }
            assertTrue(bed.qpA.localInfo().gid().startsWith(bed.dir.toString()));
        } // the bed asserts the directory is empty after closing
    }

    @Test
    void openingAContextRemovesFilesOfDeadProcesses() throws Exception {
        Path dir = Files.createTempDirectory(PrivateShmDir.root(), "jccl-test-");
        try {
            long deadPid = deadPid();
            Path control = dir.resolve("jccl-" + deadPid + "-1.ctl");
            ByteBuffer header = ByteBuffer.allocate((int) ControlDescriptor.HEADER_BYTES).order(ByteOrder.nativeOrder());
            header.putLong((int) ControlDescriptor.PID_NAMESPACE_OFFSET, Processes.pidNamespace());
            Files.write(control, header.array());
            Files.write(dir.resolve("jccl-" + deadPid + "-1-mem0"), new byte[10]);
            Files.write(dir.resolve("jccl-" + deadPid + "-1-qp1"), new byte[10]);
            Path foreign = dir.resolve("not-ours");
            Files.write(foreign, new byte[1]);
            Config config = Config.of(Map.of("JCCL_SHM_DIR", dir.toString()));
            try (DeviceContext ctx = PairBed.openContext("shm", config)) {
                assertFalse(Files.exists(control));
                assertFalse(Files.exists(dir.resolve("jccl-" + deadPid + "-1-mem0")));
                assertFalse(Files.exists(dir.resolve("jccl-" + deadPid + "-1-qp1")));
                assertTrue(Files.exists(foreign), "files that are not jccl's stay");
            }
        } finally {
            PrivateShmDir.deleteTree(dir);
        }
    }

    /** The pid of a process that has exited and been reaped. */
    private static long deadPid() throws Exception {
        // Any short-lived process will do; it need not be a JVM.
        Process p = new ProcessBuilder("true").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), "'true' did not exit");
        long pid = p.pid();
        assertFalse(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false));
        return pid;
    }
}
