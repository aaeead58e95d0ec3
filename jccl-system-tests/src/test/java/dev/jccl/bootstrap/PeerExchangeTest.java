package dev.jccl.bootstrap;

import dev.jccl.testkit.RankRunner;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.RemoteBuffer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.jccl.bootstrap.MemoryStoreTest.b;
import static org.junit.jupiter.api.Assertions.*;

@Timeout(30)
@Tag("unit")
class PeerExchangeTest {
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void allGatherReturnsEveryRanksBlobInRankOrderRoundAfterRound() throws Exception {
        MemoryStore store = new MemoryStore();
        List<List<String>> seen = RankRunner.map(4, rank -> {
            PeerExchange px = new PeerExchange(store, rank, 4, 5 * SECOND);
            StringBuilder rounds = new StringBuilder();
            for (int round = 0; round < 3; round++) {
                for (byte[] blob : px.allGather("host", b("r" + rank + "g" + round))) rounds.append(new String(blob)).append(' ');
            }
            return List.of(rounds.toString().trim());
        }).stream().toList();
        String expected = "r0g0 r1g0 r2g0 r3g0 r0g1 r1g1 r2g1 r3g1 r0g2 r1g2 r2g2 r3g2";
        for (List<String> s : seen) assertEquals(expected, s.getFirst());
    }

    @Test
    void allGatherTimeoutNamesTheRanksThatNeverPublished() throws Exception {
        MemoryStore store = new MemoryStore();
        AssertionError e = assertThrows(AssertionError.class, () -> RankRunner.map(2, i -> {
            int rank = i == 0 ? 0 : 2; // rank 1 and 3 of 4 never come
            return new PeerExchange(store, rank, 4, TimeUnit.MILLISECONDS.toNanos(200)).allGather("t", b("x"));
        }));
        StoreTimeoutException t = assertInstanceOf(StoreTimeoutException.class, e.getCause());
        assertTrue(t.getMessage().contains("ranks 1, 3 never published"), t.getMessage());
        assertEquals(2, t.missingKeys().size());
    }

    @Test
    void aTimeoutThroughAPrefixedStoreStillNamesTheMissingRank() {
        // Communicators talk through a PrefixStore: its timeout must report the keys as the caller named them.
        Store scoped = new PrefixStore(new PrefixStore(new MemoryStore(), "lo/0"), "comm1");
        StoreTimeoutException t = assertThrows(StoreTimeoutException.class,
                () -> new PeerExchange(scoped, 0, 2, TimeUnit.MILLISECONDS.toNanos(100)).allGather("ids", b("x")));
        assertTrue(t.getMessage().contains("rank 1 never published"), t.getMessage());
    }

    @Test
    void pairsSwapConnectInfoAndRemoteBuffersOverTcp() throws Exception {
        try (TcpStoreServer server = TcpStoreServer.startLoopback(0, "tok", SECOND)) {
            List<String> got = RankRunner.map(3, rank -> {
                try (TcpStoreClient c = TcpStoreClient.connect("127.0.0.1", server.port(), "tok", 5 * SECOND)) {
                    PeerExchange px = new PeerExchange(c, rank, 3, 5 * SECOND);
                    StringBuilder sb = new StringBuilder();
                    for (int peer = 0; peer < 3; peer++) {
                        if (peer == rank) continue;
                        ConnectInfo ci = px.exchangeConnectInfo("ch0", peer, new ConnectInfo("tcp", 10 * rank + peer, 0, "h:" + rank, 7));
                        RemoteBuffer rb = px.exchangeRemoteBuffer("grad", peer, new RemoteBuffer(1000L * rank, 64, 100 + rank));
                        sb.append(ci.qpn()).append('/').append(ci.gid()).append('/').append(rb.rkey()).append(' ');
                    }
                    return sb.toString().trim();
                }
            });
            assertEquals("10/h:1/101 20/h:2/102", got.get(0));
            assertEquals("1/h:0/100 21/h:2/102", got.get(1));
            assertEquals("2/h:0/100 12/h:1/101", got.get(2));
        }
    }

    @Test
    void fetchTimeoutNamesThePeerAndMalformedInfoNamesThePublisher() {
        MemoryStore store = new MemoryStore();
        PeerExchange px = new PeerExchange(store, 0, 4, TimeUnit.MILLISECONDS.toNanos(100));
        StoreTimeoutException t = assertThrows(StoreTimeoutException.class, () -> px.fetchConnectInfo("ch1", 3));
        assertTrue(t.getMessage().startsWith("rank 3 never published its queue-pair info for rank 0"), t.getMessage());
        assertEquals(List.of("qp/ch1/3->0"), t.missingKeys());

        store.set("buf/w/2->0", b("short"));
        StoreException e = assertThrows(StoreException.class, () -> px.fetchRemoteBuffer("w", 2));
        assertTrue(e.getMessage().contains("rank 2 published malformed remote buffer"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> px.fetchConnectInfo("ch1", 4));
        assertThrows(IllegalArgumentException.class, () -> new PeerExchange(store, 4, 4, SECOND));
    }
}
