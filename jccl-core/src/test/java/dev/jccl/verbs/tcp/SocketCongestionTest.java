package dev.jccl.verbs.tcp;

import dev.jccl.config.Config;
import dev.jccl.config.ConfigException;
import dev.jccl.config.Knobs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * JCCL_TCP_CONGESTION: the knob's values (auto, the default; host; or a name), what each gives a
 * loopback and a network peer, and a loopback socket's algorithm set and read back through the
 * kernel (Linux only).
 */
@Tag("unit")
class SocketCongestionTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void autoIsTheDefaultAndGivesCubicToLoopbackPeersOnly() throws IOException {
        assertEquals("auto", Config.of(Map.of()).get(Knobs.TCP_CONGESTION));
        InetAddress network = InetAddress.getByAddress(new byte[] {10, 1, 2, 3});
        assertEquals("cubic", SocketCongestion.choose("auto", LOOPBACK, "bbr"));
        assertEquals("cubic", SocketCongestion.choose("auto", InetAddress.getByAddress(new byte[] {127, 0, 0, 2}), "reno"));
        assertEquals("", SocketCongestion.choose("auto", LOOPBACK, "cubic"), "already the host's: nothing to set");
        assertEquals("", SocketCongestion.choose("auto", network, "bbr"), "a network peer keeps the host's, which copes with loss");
    }

    @Test
    void hostLeavesTheHostsChoiceAndANameIsTakenEverywhere() throws IOException {
        InetAddress network = InetAddress.getByAddress(new byte[] {10, 1, 2, 3});
        assertEquals("", SocketCongestion.choose("host", LOOPBACK, "bbr"));
        assertEquals("", SocketCongestion.choose("host", network, "bbr"));
        assertEquals("dctcp", SocketCongestion.choose("dctcp", network, "bbr"));
        assertEquals("reno", SocketCongestion.choose("reno", LOOPBACK, "cubic"));
    }

    @Test
    void theKnobRefusesWhatCannotBeAnAlgorithmsName() {
        assertEquals("reno", Config.of(Map.of("JCCL_TCP_CONGESTION", "Reno")).get(Knobs.TCP_CONGESTION));
        ConfigException e = assertThrows(ConfigException.class,
                () -> Config.of(Map.of("JCCL_TCP_CONGESTION", "cubic; rm")).get(Knobs.TCP_CONGESTION));
        assertTrue(e.getMessage().contains("JCCL_TCP_CONGESTION") && e.getMessage().contains("cubic; rm"), e.getMessage());
        assertFalse(Knobs.congestionControlName("a-very-long-algorithm-name"));
    }

    @Test
    void aConnectedSocketTakesTheAlgorithmAndReportsARefusal() throws IOException {
        assumeTrue(!SocketCongestion.available().isEmpty(), "no /proc/sys/net/ipv4 here (not Linux)");
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
             SocketChannel client = SocketChannel.open(server.getLocalAddress());
             SocketChannel accepted = server.accept()) {
            assertEquals("", SocketCongestion.set(client, "reno"), "reno is always built in");
            assertEquals("reno", SocketCongestion.get(client));
            assertEquals(SocketCongestion.hostDefault(), SocketCongestion.get(accepted), "only the socket asked for changes");
            String refused = SocketCongestion.set(client, "nosuchcc");
            assertTrue(refused.contains("errno"), refused);
            assertEquals("reno", SocketCongestion.get(client), "a refused algorithm leaves the socket as it was");
            assertTrue(SocketCongestion.set(client, "bad name!").contains("not an algorithm name"));
            assertEquals(new SocketCongestion.Outcome("reno", ""), SocketCongestion.setFirst(client, "nosuchcc", "reno"),
                    "auto's fallback where the first is refused (cubic, for a process that may not set it)");
            SocketCongestion.Outcome none = SocketCongestion.setFirst(client, "nosuchcc");
            assertEquals("", none.algorithm());
            assertTrue(none.why().contains("errno"), none.why());
        }
    }
}
