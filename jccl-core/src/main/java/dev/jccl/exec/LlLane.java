package dev.jccl.exec;

import dev.jccl.algo.Protocol;
import dev.jccl.verbs.Access;
import dev.jccl.verbs.MemoryRegion;
import dev.jccl.verbs.Opcode;
import dev.jccl.verbs.RemoteBuffer;
import dev.jccl.verbs.SendWr;
import dev.jccl.verbs.Sge;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.EnumSet;

/**
 * The low-latency (LL) lane of one {@link Link}: an inbox the peer writes whole messages into, and
 * a staging area this side packs its own messages in before one unsignaled RDMA_WRITE carries each
 * into the peer's inbox. No completion, no credit and no receive is involved: the receiver polls
 * the inbox itself.
 *
 * <p><b>Lines.</b> A message is cut into 8-byte lines, 4 bytes of data and a 4-byte flag, each line
 * one aligned 8-byte word. The provider LL runs on writes such a word whole (shm copies aligned
 * longs, each with one store), so a line whose flag is the one expected carries its data: the order
 * in which the words land does not matter, and no fence or second flag word is needed. tcp is left
 * out: it places a frame with copies that begin wherever a socket read ended, and a vectorized copy
 * of an unaligned range may store the later half of a line (its flag) before the earlier one.
 *
 * <p><b>Slots.</b> The inbox holds {@link Protocol#LL_MESSAGES_PER_LINK} messages of up to
 * {@link Protocol#LL_MAX_BYTES} for each parity of the call number ({@link LlRun}, which argues
 * why a slot is never overwritten before it is read). The flag names the call, so a slot needs no
 * clearing: the last call of the same parity left other flags in it.
 *
 * <p>Progress thread only, like the link.
 */
public final class LlLane implements AutoCloseable {
    /** Send-queue entries the link keeps beside its window for these writes (a provider may hold each until acknowledged). */
    static final int SEND_SLACK = 16;
    static final long SLOT_BYTES = 2 * Protocol.LL_MAX_BYTES;
    static final long AREA_BYTES = 2L * Protocol.LL_MESSAGES_PER_LINK * SLOT_BYTES;
    private static final VarHandle LINE = ValueLayout.JAVA_LONG.varHandle();
    private static final ValueLayout.OfInt DATA = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final Link link;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment inbox;
    private final MemoryRegion inboxRegion;
    private final MemorySegment staging;
    private final MemoryRegion stagingRegion;
    /** The data of the message being read, contiguous, for the kernels (a plain native segment). */
    private final MemorySegment unpacked;
    private final SendWr wr = SendWr.send(WrIds.LL, Sge.EMPTY);
    private RemoteBuffer peerInbox;
    private int seenFlag;

    private LlLane(Link link) {
        this.link = link;
        MemorySegment in = link.pd().allocate(AREA_BYTES);
        inboxRegion = link.pd().register(in, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
        inbox = plainNative(in);
        MemorySegment st = link.pd().allocate(AREA_BYTES);
        stagingRegion = link.pd().register(st, EnumSet.of(Access.LOCAL_WRITE));
        staging = plainNative(st);
        unpacked = arena.allocate(Protocol.LL_MAX_BYTES, 64);
    }

    /** The lane of {@code link}; hand {@link #inboxRemote()} to the peer, then {@link #connect}. */
    public static LlLane open(Link link) {
        return new LlLane(link);
    }

    public RemoteBuffer inboxRemote() {
        return inboxRegion.remote();
    }

    public void connect(RemoteBuffer peer) {
        if (peer.length() != AREA_BYTES) {
            throw new IllegalStateException("rank " + link.peer() + " offers a low-latency inbox of " + peer.length()
                    + " bytes on channel " + link.channel() + " but this rank uses " + AREA_BYTES + ": the ranks run different versions");
        }
        this.peerInbox = peer;
    }

    public Link link() {
        return link;
    }

    static long lines(long bytes) {
        return (bytes + 3) / 4;
    }

    private static long slot(int parity, int message) {
        return (parity * (long) Protocol.LL_MESSAGES_PER_LINK + message) * SLOT_BYTES;
    }

    /**
     * Packs {@code bytes} at {@code off} of {@code src} into lines flagged {@code flag} and writes them
     * into message {@code message} of the peer's slot for {@code parity}. False if the send queue is
     * full now (try again: packing again is harmless).
     */
    boolean send(MemorySegment src, long off, long bytes, int parity, int message, int flag) {
        long base = slot(parity, message);
        long hi = (long) flag << 32;
        long full = bytes / 4;
        for (long i = 0; i < full; i++) staging.set(ValueLayout.JAVA_LONG, base + 8 * i, hi | (src.get(DATA, off + 4 * i) & 0xFFFF_FFFFL));
        if (full < lines(bytes)) {
            long d = 0;
            for (int b = 0; b < bytes - 4 * full; b++) d |= (src.get(ValueLayout.JAVA_BYTE, off + 4 * full + b) & 0xFFL) << (8 * b);
            staging.set(ValueLayout.JAVA_LONG, base + 8 * full, hi | d);
        }
        long len = 8 * lines(bytes);
        wr.set(WrIds.LL, Opcode.RDMA_WRITE, staging.address() + base, len, stagingRegion.lkey(), peerInbox.at(base), peerInbox.rkey(), 0, false);
        return link.postUncounted(wr);
    }

    /**
     * Reads the lines of the message in slot ({@code parity}, {@code message}) from line {@code from}
     * on, copying their data into {@link #unpacked()}; returns how many lines from the first have
     * arrived (all of them: the message is there). Where one is missing, {@link #seenFlag()} is
     * the flag found in it.
     */
    long receive(long bytes, int parity, int message, int flag, long from) {
        long base = slot(parity, message);
        long lines = lines(bytes);
        long full = bytes / 4;
        long i = from;
        // One acquiring load per pass, plain loads after it: each line's flag and data come in one 8-byte load, so a
        // line is checked by itself and the order the lines land in does not matter; the acquire keeps this pass's loads
        // from moving before it (a poll loop sees fresh memory each pass). An acquiring load per line cost 3-4 ns
        // (4 KiB: 3.7 us against 0.7 us plain, one thread, in cache), most of an LL call of a few KiB.
        if (i < lines) {
            int first = (int) ((long) LINE.getAcquire(inbox, base + 8 * i) >>> 32);
            if (first != flag) {
                seenFlag = first;
                return i;
            }
        }
        for (; i < lines; i++) {
            long v = inbox.get(ValueLayout.JAVA_LONG, base + 8 * i);
            int f = (int) (v >>> 32);
            if (f != flag) {
                seenFlag = f;
                break;
            }
            if (i < full) {
                unpacked.set(DATA, 4 * i, (int) v);
            } else {
                for (int b = 0; b < bytes - 4 * full; b++) unpacked.set(ValueLayout.JAVA_BYTE, 4 * i + b, (byte) (v >>> (8 * b)));
            }
        }
        return i;
    }

    int seenFlag() {
        return seenFlag;
    }

    MemorySegment unpacked() {
        return unpacked;
    }

    @SuppressWarnings("restricted") // as Link.slots(): the kernels' SIMD path wants plain native segments
    private static MemorySegment plainNative(MemorySegment s) {
        return s.isMapped() ? MemorySegment.ofAddress(s.address()).reinterpret(s.byteSize()) : s;
    }

    /** Frees the unpacking buffer; the registered areas go with the protection domain, as the link's FIFO does. */
    @Override
    public void close() {
        arena.close();
    }
}
