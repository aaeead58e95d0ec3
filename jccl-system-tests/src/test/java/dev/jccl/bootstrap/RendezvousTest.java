package dev.jccl.bootstrap;

import dev.jccl.bootstrap.LaunchEnvironment.Launcher;
import dev.jccl.config.Config;
import dev.jccl.testkit.RankRunner;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.jccl.bootstrap.MemoryStoreTest.b;
import static org.junit.jupiter.api.Assertions.*;

@Timeout(30)
@Tag("unit")
class RendezvousTest {
    private static final Config CONFIG = Config.of(Map.of("JCCL_AUTH_TOKEN", "tok", "JCCL_TIMEOUT", "10s"));

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static LaunchEnvironment rank(int r, int n, int port) {
        return new LaunchEnvironment(r, n, r, n, 0, "127.0.0.1", port, Launcher.TORCHRUN);
    }

    @Test
    void rankZeroHostsAndEveryoneMeetsThroughTheStore() throws Exception {
        int port = freePort();
        List<String> results = RankRunner.map(3, r -> {
            try (Rendezvous rv = Rendezvous.connect(rank(r, 3, port), CONFIG)) {
                assertEquals(r == 0, rv.hostsStore());
                rv.store().add("count", 1);
                rv.barrier();
                long count = Long.parseLong(new String(rv.store().get("count", 0), StandardCharsets.US_ASCII));
                List<byte[]> all = rv.peers().allGather("name", b("rank" + r));
                rv.barrier();
                rv.barrier();
                return count + " " + all.stream().map(String::new).toList();
            }
        });
        for (String s : results) assertEquals("3 [rank0, rank1, rank2]", s);
    }

    @Test
    void whenTheLauncherHostsTheStoreRankZeroOnlyConnects() throws Exception {
        try (TcpStoreServer launcherStore = TcpStoreServer.startLoopback(0, "tok", TimeUnit.SECONDS.toNanos(1))) {
            Config hosted = CONFIG.with(Map.of("JCCL_STORE_HOSTED", "1"));
            List<Boolean> hosts = RankRunner.map(2, r -> {
                try (Rendezvous rv = Rendezvous.connect(rank(r, 2, launcherStore.port()), hosted)) {
                    rv.barrier();
                    return rv.hostsStore();
                }
            });
            assertEquals(List.of(false, false), hosts);
        }
    }

    @Test
    void rankZeroThatCannotBindSaysWhy() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            StoreException e = assertThrows(StoreException.class,
                    () -> Rendezvous.connect(rank(0, 2, taken.getLocalPort()), CONFIG));
            assertTrue(e.getMessage().contains("cannot host the store") && e.getMessage().contains("JCCL_STORE_HOSTED"),
                    e.getMessage());
        }
    }

    @Test
    void aSingleProcessGetsAnInMemoryStore() {
        try (Rendezvous rv = Rendezvous.connect(LaunchEnvironment.singleProcess(), CONFIG)) {
            assertFalse(rv.hostsStore());
            assertInstanceOf(MemoryStore.class, rv.store());
            rv.barrier();
            rv.barrier();
            assertEquals(1, rv.peers().allGather("x", b("only")).size());
        }
    }
}
