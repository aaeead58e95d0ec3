package dev.jccl.exec;

import dev.jccl.algo.Algorithm;
import dev.jccl.algo.ChunkHazards;
import dev.jccl.algo.Collective;
import dev.jccl.algo.CollectiveArgs;
import dev.jccl.algo.HostTopology;
import dev.jccl.algo.Placement;
import dev.jccl.algo.RankSchedule;
import dev.jccl.algo.Schedules;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The compiled program keeps ChunkHazards' operations and waits exactly, and the FIFO order per link. */
@Tag("unit")
class ChannelProgramTest {
    @Test
    void compiledWaitsAreChunkHazardsWaits() {
        CollectiveArgs args = CollectiveArgs.of(Collective.ALL_REDUCE, 1000);
        for (Algorithm a : Algorithm.implementing(Collective.ALL_REDUCE)) {
            for (boolean inPlace : new boolean[] {false, true}) {
                RankSchedule s = Schedules.build(a, args, HostTopology.singleHost(5), 3, 1, 2, 16);
                Placement pl = inPlace ? Placement.inPlace(args, 3) : Placement.DISTINCT;
                ChannelProgram p = ChannelProgram.compile(1, s, 37, pl);
                ChunkHazards h = ChunkHazards.of(s, 37, pl);
                assertEquals(h.ops().size(), p.ops);
                for (int k = 0; k < p.ops; k++) {
                    assertEquals(h.chunkCount(k), p.chunks[k]);
                    for (int c = 0; c < p.chunks[k]; c++) {
                        List<Integer> want = new ArrayList<>();
                        for (ChunkHazards.Wait w : h.waits(k, c)) {
                            want.add(w.op());
                            want.add(w.chunks());
                        }
                        List<Integer> got = new ArrayList<>();
                        for (int i = p.waitStart[k][c]; i < p.waitStart[k][c + 1]; i++) {
                            got.add(p.waitOp[k][i]);
                            got.add(p.waitNeed[k][i]);
                        }
                        assertEquals(want, got, a + " op " + k + " chunk " + c);
                    }
                }
            }
        }
    }

    /** Recursive doubling on two ranks: one exchange; the higher rank reduces with the incoming data first. */
    @Test
    void theOperandOrderOfEachReceiveIsKept() {
        CollectiveArgs args = CollectiveArgs.of(Collective.ALL_REDUCE, 100);
        for (int rank = 0; rank < 2; rank++) {
            RankSchedule s = Schedules.build(Algorithm.RECURSIVE_DOUBLING, args, HostTopology.singleHost(2), rank);
            ChannelProgram p = ChannelProgram.compile(0, s, 16, Placement.inPlace(args, rank));
            assertEquals(2, p.ops);
            assertEquals(ChannelProgram.RECV, p.kind[1]);
            assertTrue(p.reduce[1]);
            assertEquals(rank == 1, p.incomingFirst[1], "rank " + rank);
            assertFalse(p.incomingFirst[0]);
        }
        RankSchedule ring = Schedules.build(Algorithm.RING, args, HostTopology.singleHost(3), 0);
        ChannelProgram p = ChannelProgram.compile(0, ring, 16, Placement.DISTINCT);
        for (int k = 0; k < p.ops; k++) assertFalse(p.incomingFirst[k], "ring op " + k);
    }

    @Test
    void sendsAndReceivesChainPerPeer() {
        RankSchedule s = Schedules.build(Algorithm.RING, CollectiveArgs.of(Collective.ALL_REDUCE, 90), HostTopology.singleHost(3), 0);
        ChannelProgram p = ChannelProgram.compile(0, s, 8, Placement.DISTINCT);
        int lastSend = -1;
        int lastRecv = -1;
        for (int k = 0; k < p.ops; k++) {
            if (p.kind[k] == ChannelProgram.SEND) {
                assertEquals(lastSend, p.prevSameLink[k]);
                lastSend = k;
            } else if (p.kind[k] == ChannelProgram.RECV) {
                assertEquals(lastRecv, p.prevSameLink[k]);
                lastRecv = k;
            }
        }
        assertArrayEquals(new int[] {1, 2}, p.peers());
    }

    @Test
    void pointToPointProgramsAreOneOperation() {
        ChannelProgram send = ChannelProgram.send(2, 100, 30);
        assertEquals(1, send.ops);
        assertEquals(4, send.chunks[0]);
        assertArrayEquals(new int[] {2}, send.peers());
        assertEquals(0, ChannelProgram.recv(1, 0, 30).ops);
    }
}
