package dev.jccl.comm;

import dev.jccl.config.Config;
import dev.jccl.verbs.VerbsException;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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
    void bothEndsAgreeWhenTheirOrdersDiffer() {
        List<Hello> hellos = List.of(hello("h", "tcp", "", "shm", "h fs dev 1"), hello("h", "shm", "h fs dev 1", "tcp", ""));
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
        assertEquals(List.of("shm", "tcp"), List.copyOf(back.localityByProvider().keySet()));
        assertThrows(VerbsException.class, () -> hello("a\nb", "tcp", "").encode());
        assertThrows(VerbsException.class, () -> hello("a", "tcp", "x\ny").encode());
        VerbsException bad = assertThrows(VerbsException.class, () -> Hello.decode("h\nno-equals-sign".getBytes(), 5));
        assertTrue(bad.getMessage().contains("rank 5"), bad.getMessage());
    }

    private static Hello hello(String host, String... nameThenLocality) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < nameThenLocality.length; i += 2) m.put(nameThenLocality[i], nameThenLocality[i + 1]);
        return new Hello(host, m);
    }
}
