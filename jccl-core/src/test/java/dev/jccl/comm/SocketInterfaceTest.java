package dev.jccl.comm;

import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.*;

/** The default socket interface, decided from the store's address with the routing table stubbed. */
@Tag("unit")
class SocketInterfaceTest {
    private static final Function<String, Optional<InetAddress>> LITERAL = h -> Optional.of(InetAddress.ofLiteral(h));
    private static final SocketInterface.Routes VIA_VETH = t -> Optional.of(InetAddress.ofLiteral("10.213.1.2"));

    private static SocketInterface.Choice choose(String configured, String store, SocketInterface.Routes routes) {
        return SocketInterface.choose(configured, store, LITERAL, routes, a -> "interface veth0");
    }

    @Test
    void aStoreOnAnotherHostPicksTheInterfaceThatRoutesToIt() {
        SocketInterface.Choice c = choose("", "10.213.0.2", VIA_VETH);
        assertEquals(Optional.of("10.213.1.2"), c.address());
        assertTrue(c.why().contains("interface veth0 10.213.1.2") && c.why().contains("10.213.0.2"), c.why());
    }

    @Test
    void aStoreOnLoopbackKeepsLoopback() {
        SocketInterface.Choice c = choose("", "127.0.0.1", VIA_VETH);
        assertEquals(Optional.empty(), c.address());
        assertTrue(c.why().contains("single-host"), c.why());
    }

    @Test
    void anExplicitKnobWins() {
        SocketInterface.Choice c = choose("eth7", "10.213.0.2", VIA_VETH);
        assertEquals(Optional.empty(), c.address());
        assertTrue(c.why().contains("JCCL_SOCKET_IFNAME=eth7"), c.why());
    }

    @Test
    void noRouteOrARouteThroughLoopbackNeverPicksLoopbackSilently() {
        assertEquals(Optional.empty(), choose("", "10.213.0.2", t -> Optional.empty()).address());
        SocketInterface.Choice lo = choose("", "10.213.0.2", t -> Optional.of(InetAddress.ofLiteral("127.0.0.1")));
        assertEquals(Optional.empty(), lo.address());
        assertTrue(lo.why().contains("set JCCL_SOCKET_IFNAME"), lo.why());
        assertEquals(Optional.empty(), SocketInterface.choose("", "no-such-host", h -> Optional.empty(), VIA_VETH, a -> "x").address());
    }

    @Test
    void theChosenAddressBecomesTheKnobAndASingleHostConfigIsUntouched() {
        Config local = Config.of(Map.of());
        assertSame(local, SocketInterface.forStore(local, "127.0.0.1"));
        assertSame(local, SocketInterface.forStore(local, null));
        Config routed = SocketInterface.forStore(local, "192.0.2.250");
        String knob = routed.get(Knobs.SOCKET_IFNAME);
        assertFalse(knob.startsWith("127."), "a routable store never gives loopback: " + knob);
    }
}
