package dev.jccl.verbs.tcp;

import dev.jccl.fuzz.Guarded;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;
import dev.jccl.verbs.WcStatus;
import dev.jccl.verbs.base.BasicCompletionQueue;
import dev.jccl.verbs.base.LocalRegion;
import dev.jccl.verbs.base.RegionTable;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.SplittableRandom;


/**
 * The reading half of one tcp queue pair without its sockets: a real {@link Responder} over a real
 * {@link RegionTable} and {@link ClaimedReceives}, a real {@link Requester} with a READ and a SEND in
 * flight, dispatched by the queue pair's own {@link FrameDispatch}. Every registered region, receive
 * buffer and READ sink sits between guard bytes. Replies go out on {@code lanes}, shared by all benches.
 */
final class FuzzBench implements InboundStream.Handler {
    static final int WINDOW = 8;
    static final int PEER_PSN = 1000;
    static final int OWN_PSN = 5000;
    static final long READ_BYTES = 3000;

    final List<Guarded> guarded = new ArrayList<>();
    final List<LocalRegion> regions = new ArrayList<>();
    final List<MemorySegment> receiveBuffers = new ArrayList<>();
    final BasicCompletionQueue cq = new BasicCompletionQueue(256);
    private final RegionTable table = new RegionTable();
    private final ClaimedReceives receives = new ClaimedReceives(WINDOW, cq, 1);
    private final Responder responder = new Responder(table, receives, 0, detail -> broken = detail);
    private final Requester requester = new Requester(WINDOW, cq, 1, OWN_PSN);
    /** The queue pair's own dispatch; a NAK fails the requester (the responder goes on, to reach more of it). */
    private final FrameDispatch dispatch = new FrameDispatch(requester, responder, (n, status, wireSeq, why) -> requester.fail(n, status, why));
    String broken;

    FuzzBench(SplittableRandom r, OutboundLanes lanes) {
        Arena arena = Arena.ofAuto(); // replies still queued on the lanes keep their memory alive
        for (int i = 0; i < 3; i++) {
            MemorySegment seg = guard(arena, 64 + r.nextInt(16 * 1024));
            Access right = i == 2 ? Access.REMOTE_READ : Access.REMOTE_WRITE;
            regions.add(table.register(seg, EnumSet.of(Access.LOCAL_WRITE, right), true));
        }
        for (int i = r.nextInt(WINDOW); i > 0; i--) {
            MemorySegment buf = guard(arena, r.nextInt(8 * 1024));
            receiveBuffers.add(buf);
            receives.post(receiveBuffers.size(), buf);
        }
        responder.start(PEER_PSN, WINDOW, lanes, "fuzz peer");
        LocalRegion sink = table.register(guard(arena, READ_BYTES), EnumSet.of(Access.LOCAL_WRITE), true);
        requester.post(new SendWr(1, Opcode.RDMA_READ, new Sge(sink.address(), READ_BYTES, sink.lkey()), 0x1000, 42, 0, true),
                sink.segment(), 0, lanes);
        requester.post(new SendWr(2, Opcode.SEND, new Sge(sink.address(), 100, sink.lkey()), 0, 0, 0, true),
                sink.segment(), 0, lanes);
    }

    private MemorySegment guard(Arena arena, long bytes) {
        Guarded g = new Guarded(arena.allocate(Guarded.wholeBytes(bytes), 64));
        guarded.add(g);
        return g.inner();
    }

    boolean guardsIntact() {
        return guarded.stream().allMatch(Guarded::intact);
    }

    @Override
    public MemorySegment begin(FrameCodec h, long firstTriedNs, InboundStream.Landing at) throws IOException {
        return dispatch.begin(h, firstTriedNs, at);
    }

    @Override
    public void end(FrameCodec h, MemorySegment payload) throws IOException {
        dispatch.end(h, payload);
    }

    @Override
    public void heavy(boolean heavy) { }

    /** After the stream ended, as the queue pair does on ERR: flush everything. */
    void fail() {
        requester.fail(-1, WcStatus.WR_FLUSH_ERR, "fuzz stream ended");
        responder.flush("fuzz stream ended");
    }
}
