package dev.jccl.comm;

import dev.jccl.config.Config;
import dev.jccl.verbs.Device;
import dev.jccl.verbs.DeviceContext;
import dev.jccl.verbs.PathKind;
import dev.jccl.verbs.Providers;
import dev.jccl.verbs.VerbsException;
import dev.jccl.verbs.VerbsProvider;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The provider of each pair comes from the providers' own reach, decided alike at both ends. */
@Tag("unit")
class TransportChoiceTest {
    private static final Config ALL = Config.of(Map.of());

    @Test
    void sharedMemoryWithinAHostAndItsFileSystemTcpElsewhere() {
        Hello a = hello("host-a", "shm", "host-a fs dev 23", "tcp", "");
        Hello sameHost = hello("host-a", "shm", "host-a fs dev 23", "tcp", "");
        Hello otherHost = hello("host-b", "shm", "host-b fs dev 23", "tcp", "");
        Hello ownTmpfs = hello("host-a", "shm", "host-a fs dev 41", "tcp", "");
        List<Hello> hellos = List.of(a, sameHost, otherHost, ownTmpfs);
        try (Transports t = new Transports(ALL, 0, hellos)) {
            assertEquals("shm", t.choose(1));
            assertEquals("tcp", t.choose(2));
            assertEquals("tcp", t.choose(3), "same host id but a /dev/shm of its own: shared memory cannot reach it");
        }
    }

    @Test
    void withoutANamedOrderAPairTakesTheBestPathKindThatReaches() {
        List<VerbsProvider> here = List.of(Providers.require("shm"), Providers.require("tcp"), new FakeRdma("rdmax"));
        Hello a = hello("a", "rdmax", "rdma", "shm", "a fs dev 1", "tcp", "");
        Hello sameHost = hello("a", "rdmax", "rdma", "shm", "a fs dev 1", "tcp", "");
        Hello rdmaHost = hello("b", "rdmax", "rdma", "shm", "b fs dev 1", "tcp", "");
        Hello plainHost = hello("c", "rdmax", "", "shm", "c fs dev 1", "tcp", "");
        List<Hello> hellos = List.of(a, sameHost, rdmaHost, plainHost);
        try (Transports t = new Transports(ALL, 0, hellos, here); Transports b = new Transports(ALL, 2, hellos, here)) {
            assertEquals("shm", t.choose(1), "shared memory beats RDMA within a host");
            assertEquals("rdmax", t.choose(2), "RDMA beats the socket across hosts when both ends have it");
            assertEquals("rdmax", b.choose(0), "and the other end agrees");
            assertEquals("tcp", t.choose(3), "one end without RDMA: the socket, not a provider that claims nothing better");
        }
    }

    @Test
    void aNamedOrderIsFollowedEvenWhenAFasterPathExists() {
        List<VerbsProvider> here = List.of(Providers.require("tcp"), new FakeRdma("rdmax"));
        List<Hello> hellos = List.of(named("a", "tcp", "", "rdmax", "rdma"), named("b", "tcp", "", "rdmax", "rdma"));
        try (Transports t = new Transports(ALL, 0, hellos, here)) {
            assertEquals("tcp", t.choose(1));
        }
        List<Hello> forced = List.of(named("a", "rdmax", ""), named("b", "rdmax", ""));
        try (Transports t = new Transports(ALL, 0, forced, List.of(new FakeRdma("rdmax")))) {
            assertEquals("rdmax", t.choose(1), "JCCL_TRANSPORT=ucx forces it even without RDMA");
        }
    }

    @Test
    void bothEndsAgreeWhenTheirOrdersDiffer() {
        List<Hello> hellos = List.of(named("h", "tcp", "", "shm", "h fs dev 1"), named("h", "shm", "h fs dev 1", "tcp", ""));
        try (Transports zero = new Transports(ALL, 0, hellos); Transports one = new Transports(ALL, 1, hellos)) {
            assertEquals("tcp", zero.choose(1));
            assertEquals("tcp", one.choose(0), "the lower rank's order decides at both ends");
        }
    }

    @Test
    void noCommonProviderNamesBothRanksAndTheirProviders() {
        List<Hello> hellos = List.of(hello("h1", "shm", "h1 fs dev 1"), hello("h2", "shm", "h2 fs dev 1"));
        try (Transports t = new Transports(ALL, 0, hellos)) {
            VerbsException e = assertThrows(VerbsException.class, () -> t.choose(1));
            assertTrue(e.getMessage().contains("rank 0 (host h1, providers [shm (h1 fs dev 1)])"), e.getMessage());
            assertTrue(e.getMessage().contains("rank 1 (host h2, providers [shm (h2 fs dev 1)])"), e.getMessage());
        }
    }

    @Test
    void aRankOnLoopbackAndOneOnANetworkAddressFailAtSetUpNamingBoth() {
        List<Hello> hellos = List.of(hello("h0", "tcp", "10.213.0.2"), hello("h1", "tcp", "127.0.0.1"), hello("h2", "tcp", "10.213.2.2"));
        try (Transports t = new Transports(ALL, 0, hellos)) {
            assertEquals("tcp", t.choose(2));
            VerbsException e = assertThrows(VerbsException.class, () -> t.choose(1));
            assertTrue(e.getMessage().contains("rank 0 (host h0, providers [tcp (10.213.0.2)])"), e.getMessage());
            assertTrue(e.getMessage().contains("rank 1 (host h1, providers [tcp (127.0.0.1)])"), e.getMessage());
        }
    }

    @Test
    void helloRoundTripsAndRefusesWhatWouldNotDecode() {
        Hello h = hello("node-7", "shm", "node-7 fs dev 23", "tcp", "");
        Hello back = Hello.decode(h.encode(), 3);
        assertEquals(h, back);
        assertEquals(named("n", "tcp", ""), Hello.decode(named("n", "tcp", "").encode(), 3));
        assertEquals(List.of("shm", "tcp"), List.copyOf(back.localityByProvider().keySet()));
        assertThrows(VerbsException.class, () -> hello("a\nb", "tcp", "").encode());
        assertThrows(VerbsException.class, () -> hello("a", "tcp", "x\ny").encode());
        VerbsException bad = assertThrows(VerbsException.class, () -> Hello.decode("h\norder=named\nno-equals-sign".getBytes(), 5));
        assertTrue(bad.getMessage().contains("rank 5"), bad.getMessage());
    }

    private static Hello hello(String host, String... nameThenLocality) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenLocality.length; i += 2) m.put(nameThenLocality[i], nameThenLocality[i + 1]);
        return new Hello(host, false, m);
    }

    private static Hello named(String host, String... nameThenLocality) {
        Hello h = hello(host, nameThenLocality);
        return new Hello(h.hostId(), true, h.localityByProvider());
    }

    /** A network provider that claims RDMA between ranks that both published "rdma". */
    private record FakeRdma(String name) implements VerbsProvider {
        @Override public Optional<String> unavailabilityCause(Config config) {
            return Optional.empty();
        }

        @Override public List<Device> devices(Config config) {
            return List.of();
        }

        @Override public DeviceContext open(Device device, Config config) {
            throw new UnsupportedOperationException();
        }

        @Override public PathKind pathKind(String mine, String theirs) {
            return mine.equals("rdma") && theirs.equals("rdma") ? PathKind.RDMA : PathKind.OTHER;
        }
    }
}
