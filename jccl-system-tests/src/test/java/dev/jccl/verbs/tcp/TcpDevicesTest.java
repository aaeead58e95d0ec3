package dev.jccl.verbs.tcp;

import dev.jccl.config.Config;
import dev.jccl.trace.Log;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.PortState;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Devices are the up IPv4 interfaces; the context listens only on the chosen one and says so. */
@Timeout(30)
@Tag("unit")
class TcpDevicesTest {
    @TempDir
    Path dir;

    @AfterEach
    void restoreLog() {
        Log.configure(Config.of(Map.of()));
    }

    @Test
    void foundByNameAndListsLoopbackFirstByDefault() throws Exception {
        VerbsProvider tcp = Providers.require("tcp");
        Config config = TcpPeer.config(1);
        assertEquals(Optional.empty(), tcp.unavailabilityCause(config));
        List<Device> devices = tcp.devices(config);
        Device lo = devices.getFirst();
        NetworkInterface loopback = NetworkInterface.getByInetAddress(InetAddress.getLoopbackAddress());
        assertEquals(loopback.getName(), lo.name());
        assertEquals("tcp", lo.provider());
        assertEquals(1, lo.ports().size());
        assertEquals(1, lo.ports().getFirst().number());
        assertEquals(PortState.ACTIVE, lo.ports().getFirst().state());
        assertEquals(loopback.getMTU(), lo.ports().getFirst().mtu());
        assertEquals("127.0.0.1", lo.ports().getFirst().address());
        assertTrue(lo.ports().getFirst().linkRate().matches("unknown|\\d+ [MG]b/s"), lo.ports().getFirst().linkRate());
        assertEquals(devices.size(), devices.stream().map(Device::name).distinct().count(), "one device per interface");
    }

    @Test
    void socketIfnameTakesAnAddressOrANameAndRejectsTheUnknown() {
        VerbsProvider tcp = Providers.require("tcp");
        assertEquals("127.0.0.1", tcp.devices(TcpPeer.config(1, "JCCL_SOCKET_IFNAME", "127.0.0.1")).getFirst()
                .ports().getFirst().address());
        String loName = tcp.devices(TcpPeer.config(1)).getFirst().name();
        assertEquals(loName, tcp.devices(TcpPeer.config(1, "JCCL_SOCKET_IFNAME", loName)).getFirst().name());
        Optional<String> cause = tcp.unavailabilityCause(TcpPeer.config(1, "JCCL_SOCKET_IFNAME", "nosuch0"));
        assertTrue(cause.isPresent());
        assertTrue(cause.get().contains("nosuch0"), cause.get());
        assertTrue(Providers.allowed(TcpPeer.config(1, "JCCL_SOCKET_IFNAME", "nosuch0", "JCCL_TRANSPORT", "tcp")).isEmpty());
    }

    @ParameterizedTest
    @CsvSource({"1, '2 sockets, shared'", "0, '2 sockets each way'"})
    void connectionIsDescribedAndLoggedAtInfo(String shared, String sockets) throws Exception {
        Path logFile = dir.resolve("info.log");
        Log.configure(Config.of(Map.of("JCCL_DEBUG", "INFO", "JCCL_DEBUG_FILE", logFile.toString())));
        try (TcpPeer a = new TcpPeer(TcpPeer.config(2, "JCCL_TCP_SHARED_SOCKETS", shared), 4);
             TcpPeer b = new TcpPeer(TcpPeer.config(2, "JCCL_TCP_SHARED_SOCKETS", shared), 4)) {
            assertTrue(a.qp.describe().contains("not connected"), a.qp.describe());
            TcpPeer.connect(a, b);
            String loName = a.context.device().name();
            String expected = "qp " + a.qp.qpn() + " -> " + b.qp.localInfo().gid() + " qp " + b.qp.qpn()
                    + " via NET/Socket " + loName + " 127.0.0.1 (" + sockets + ")";
            assertEquals(expected, a.qp.describe());
            assertTrue(Files.readString(logFile).contains("[NET] " + expected), Files.readString(logFile));
        }
    }
}
