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
 * JCCL_TCP_CONGESTION: the knob's values (host, the default, or a name), and a
 * loopback socket's algorithm set and read back through the kernel (Linux only).
 */
@Tag("unit")
class SocketCongestionTest {
    @Test
    void hostLeavesTheHostsChoiceAndIsTheDefault() {
        assertEquals("", SocketCongestion.resolve("host"));
        assertEquals("dctcp", SocketCongestion.resolve("dctcp"));
        assertEquals("host", Config.of(Map.of()).get(Knobs.TCP_CONGESTION));
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
        }
    }
}
