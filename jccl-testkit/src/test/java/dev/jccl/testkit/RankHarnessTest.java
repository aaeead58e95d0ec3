package dev.jccl.testkit;

import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.RecvWr;
import dev.jccl.verbs.RemoteBuffer;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WorkCompletion;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.ValueLayout;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Tag("multiprocess")
class RankHarnessTest {
    static List<ProviderTarget> targets() {
        return ProviderTarget.standard();
    }

    /** A token goes once around a ring of four; each rank adds its rank (plus one) before forwarding. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    @Timeout(60)
    void aTokenTravelsAroundTheRing(ProviderTarget target) {
        try (RankHarness h = RankHarness.open(target, 4, RankHarness.Topology.RING, RankHarness.Options.DEFAULT)) {
            assertEquals(List.of(1, 3), h.rank(0).peers());
            h.run(rank -> {
                MemoryRegion buf = rank.endpoint().allocateRegion(16);
                assertTrue(rank.qp(rank.left()).postRecv(new RecvWr(1, buf.sge(8, 8))));
                rank.barrier(); // every receive is posted before the first SEND
                if (rank.rank() == 0) {
                    buf.segment().set(ValueLayout.JAVA_LONG, 0, 1);
                    assertTrue(rank.qp(rank.right()).postSend(SendWr.send(2, buf.sge(0, 8))));
                }
                rank.endpoint().recvs().nextSuccess(1);
                long token = buf.segment().get(ValueLayout.JAVA_LONG, 8);
                if (rank.rank() != 0) {
                    buf.segment().set(ValueLayout.JAVA_LONG, 0, token + rank.rank() + 1);
                    assertTrue(rank.qp(rank.right()).postSend(SendWr.send(2, buf.sge(0, 8))));
                } else {
                    assertEquals(1 + 2 + 3 + 4, token, "token after one round");
                }
                rank.endpoint().sends().nextSuccess(2);
            });
        }
    }

    /** Every rank writes its number into its own slot at every peer, announcing it with the immediate. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    @Timeout(60)
    void everyRankWritesItsSlotAtEveryPeerOfAFullMesh(ProviderTarget target) {
        int size = 3;
        try (RankHarness h = RankHarness.open(target, size, RankHarness.Topology.FULL_MESH, RankHarness.Options.DEFAULT)) {
            h.run(rank -> {
                MemoryRegion slots = rank.endpoint().allocateRegion(8L * size);
                MemoryRegion mine = rank.endpoint().allocateRegion(8);
                mine.segment().set(ValueLayout.JAVA_LONG, 0, 1000 + rank.rank());
                for (int peer : rank.peers()) assertTrue(rank.qp(peer).postRecv(new RecvWr(peer, Sge.EMPTY)));
                List<RemoteBuffer> all = rank.exchange(slots.remote());
                for (int peer : rank.peers()) {
                    RemoteBuffer theirs = all.get(peer);
                    assertTrue(rank.qp(peer).postSend(SendWr.writeWithImm(peer, mine.sge(0, 8), theirs.at(8L * rank.rank()),
                            theirs.rkey(), rank.rank())));
                }
                Set<Integer> announced = new HashSet<>();
                for (WorkCompletion wc : rank.endpoint().recvs().next(size - 1, CompletionReader.DEFAULT_WAIT_NS)) {
                    assertTrue(wc.ok(), wc.toString());
                    assertEquals(wc.wrId(), wc.imm(), "the immediate names the writer: " + wc);
                    announced.add(wc.imm());
                    assertEquals(1000 + wc.imm(), slots.segment().get(ValueLayout.JAVA_LONG, 8L * wc.imm()));
                }
                assertEquals(new HashSet<>(rank.peers()), announced);
                rank.endpoint().sends().next(size - 1, CompletionReader.DEFAULT_WAIT_NS).forEach(wc -> assertTrue(wc.ok(), wc.toString()));
            });
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    @Timeout(60)
    void twoRanksInARingShareOneQueuePairAndFailuresNameTheRank(ProviderTarget target) {
        try (RankHarness h = RankHarness.open(target, 2, RankHarness.Topology.RING, RankHarness.Options.DEFAULT)) {
            Rank r1 = h.rank(1);
            assertEquals(List.of(0), r1.peers());
            assertSame(r1.qp(r1.left()), r1.qp(r1.right()));
            assertThrows(IllegalArgumentException.class, () -> r1.qp(1));
            AssertionError e = assertThrows(AssertionError.class, () -> h.run(rank -> {
                if (rank.rank() == 1) throw new IllegalStateException("rank one gives up");
                rank.barrier(); // rank 0 would wait for rank 1 until the board's timeout
            }));
            assertTrue(e.getMessage().startsWith("rank 1 of 2 failed"), e.getMessage());
        }
    }
}
