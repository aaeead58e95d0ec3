package dev.jccl.exec;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.algo.Protocol;
import dev.jccl.trace.DataPathCounters;

import java.lang.foreign.MemorySegment;
import java.util.Set;

import static dev.jccl.exec.ChannelProgram.COPY;
import static dev.jccl.exec.ChannelProgram.SEND;

/**
 * One allreduce on the LL protocol ({@link LlLane}): the same compiled schedule as Simple (recursive
 * doubling or tree; sends, copies and receives with their reduce order), each operation one
 * message. A send packs and posts at once, so it is done when posted; a receive is done when every
 * line of its message carries this call's flag and its data is applied. Made once per plan and
 * {@link #reset} per call, so a call allocates nothing.
 *
 * <p><b>Why a slot is never overwritten before it is read.</b> Slots alternate by the parity of the
 * LL call number, so call {@code s + 2} writes where call {@code s} did. A rank starts call
 * {@code s + 2} only after it finished {@code s + 1}, whose result depends on every rank's input of
 * {@code s + 1} (every allreduce output does, and LL runs no empty call,
 * whose result would not); so every peer had started {@code s + 1}, so had
 * finished {@code s}, so had read every message it got in {@code s}, this rank's included. The
 * same holds for this rank's staging of call {@code s}: the peer received it, so the transport has
 * read it. Only allreduces run on LL, and the numbering counts LL calls only, so Simple calls in
 * between do not matter.
 *
 * <p><b>Never a hang, never a wrong result.</b> A line with another flag is not taken: until the
 * peer writes, a slot holds the flag of call {@code s - 2} (or zeros). A flag of this call number
 * with another fingerprint (or of no number this slot can hold) that stays put for
 * {@link #MISMATCH_NS} is a peer running another call; a Simple chunk arriving on the link while
 * this rank waits for LL lines is one too. Either fails with a {@link ExecFailure.Mismatch}; a peer
 * that never writes is the engine's stall timeout, a dead one its link's error completions.
 */
public final class LlRun {
    /** How long a foreign flag must stay before it is a mismatch, not a line caught while its write lands. */
    static final long MISMATCH_NS = 20_000_000;

    /** Where the lanes come from: every link of the plan exists and is connected before the run is made. */
    public interface LaneSource {
        LlLane lane(int peer, int channel);
    }

    private final ChannelProgram p;
    private final LlLane[] laneOf;
    private final int[] messageOf;
    private final Bindings bind;
    private final DataType type;
    private final Kernels kernels;
    private final int eb;
    private final int[] done;
    private final long[] linesIn;
    private ReduceOp reduceWith;
    private int flag;
    private int staleSeqBits;
    private int parity;
    private int firstOpen;
    private int foreignFlag;
    private long foreignSinceNs;

    LlRun(ChannelProgram p, LaneSource lanes, Bindings bind, DataType type, Kernels kernels) {
        this.p = p;
        this.bind = bind;
        this.type = type;
        this.kernels = kernels;
        this.eb = type.byteSize();
        this.laneOf = new LlLane[p.ops];
        this.messageOf = new int[p.ops];
        for (int k = 0; k < p.ops; k++) {
            if (p.peer[k] < 0) continue;
            laneOf[k] = lanes.lane(p.peer[k], p.channel);
            messageOf[k] = p.prevSameLink[k] < 0 ? 0 : messageOf[p.prevSameLink[k]] + 1;
        }
        this.done = new int[p.ops];
        this.linesIn = new long[p.ops];
    }

    /** Why {@code p} cannot run on LL for elements of {@code elemBytes}, or null if it can. */
    public static String whyNot(ChannelProgram p, int elemBytes) {
        int[] messages = new int[p.ops];
        for (int k = 0; k < p.ops; k++) {
            if (p.chunks[k] > 1) return "an operation of " + p.count[k] + " elements needs " + p.chunks[k] + " chunks";
            if (p.peer[k] >= 0 && p.count[k] * elemBytes > Protocol.LL_MAX_BYTES) return "a message exceeds the LL slot";
            messages[k] = p.prevSameLink[k] < 0 ? 1 : messages[p.prevSameLink[k]] + 1;
            if (messages[k] > Protocol.LL_MESSAGES_PER_LINK) return "the schedule sends more than " + Protocol.LL_MESSAGES_PER_LINK + " messages per link";
        }
        return null;
    }

    /** The flag every line of LL call {@code llSeq} of the operation with {@code fingerprint} carries; never 0. */
    static int flag(long llSeq, int fingerprint) {
        return 0x8000_0000 | (int) (llSeq & 0x7FFF) << 16 | fingerprint & 0xFFFF;
    }

    void reset(ReduceOp reduceWith, int fingerprint, long llSeq) {
        this.reduceWith = reduceWith;
        this.flag = flag(llSeq, fingerprint);
        this.staleSeqBits = (int) ((llSeq - 2) & 0x7FFF);
        this.parity = (int) (llSeq & 1);
        foreignFlag = 0;
        firstOpen = 0;
        for (int k = 0; k < p.ops; k++) {
            linesIn[k] = 0;
            done[k] = p.chunks[k] == 0 || p.kind[k] == COPY && address(k, true) == address(k, false) ? 1 : 0;
        }
        skipFinished();
    }

    boolean finished() {
        return firstOpen == p.ops;
    }

    int advance() {
        int work = 0;
        boolean again = true;
        while (again && firstOpen < p.ops) {
            again = false;
            for (int k = firstOpen; k < p.ops; k++) {
                if (done[k] != 0 || !ready(k)) continue;
                int prev = p.prevSameLink[k];
                if (prev >= 0 && done[prev] == 0) continue; // FIFO per link, as the message numbers assume
                boolean ran = switch (p.kind[k]) {
                    case SEND -> send(k);
                    case COPY -> copy(k);
                    default -> receive(k);
                };
                if (ran) {
                    done[k] = 1;
                    work++;
                    again = true;
                }
            }
            skipFinished();
        }
        return work;
    }

    private boolean send(int k) {
        long bytes = p.count[k] * eb;
        if (!laneOf[k].send(bind.segment(p.srcBuf[k], p.channel), p.srcOff[k] * eb, bytes, parity, messageOf[k], flag)) return false;
        DataPathCounters.add(DataPathCounters.Counter.SENT_BYTES, bytes);
        return true;
    }

    private boolean copy(int k) {
        long bytes = p.count[k] * eb;
        MemorySegment.copy(bind.segment(p.srcBuf[k], p.channel), p.srcOff[k] * eb, bind.segment(p.dstBuf[k], p.channel), p.dstOff[k] * eb, bytes);
        DataPathCounters.add(DataPathCounters.Counter.RUNTIME_COPY_BYTES, bytes);
        return true;
    }

    private boolean receive(int k) {
        LlLane lane = laneOf[k];
        long bytes = p.count[k] * eb;
        linesIn[k] = lane.receive(bytes, parity, messageOf[k], flag, linesIn[k]);
        if (linesIn[k] < LlLane.lines(bytes)) {
            checkForeign(lane, bytes);
            return false;
        }
        MemorySegment dst = bind.segment(p.dstBuf[k], p.channel);
        long dstOff = p.dstOff[k] * eb;
        MemorySegment incoming = lane.unpacked();
        if (p.reduce[k]) {
            MemorySegment operand = bind.segment(p.srcBuf[k], p.channel);
            long operandOff = p.srcOff[k] * eb;
            // The schedule's operand order, as Simple applies it: ranks computing one result agree bit for bit.
            if (p.incomingFirst[k]) kernels.reduce(type, reduceWith, dst, dstOff, incoming, 0, operand, operandOff, p.count[k]);
            else kernels.reduce(type, reduceWith, dst, dstOff, operand, operandOff, incoming, 0, p.count[k]);
        } else {
            MemorySegment.copy(incoming, 0, dst, dstOff, bytes);
        }
        DataPathCounters.add(p.reduce[k] ? DataPathCounters.Counter.REDUCED_BYTES : DataPathCounters.Counter.RUNTIME_COPY_BYTES, bytes);
        return true;
    }

    /** A peer running another call shows as a Simple chunk on the link, or as a foreign flag that stays. */
    private void checkForeign(LlLane lane, long bytes) {
        Link link = lane.link();
        if (link.hasArrival()) {
            throw new ExecFailure.Mismatch(link.peer(), p.channel, flag, link.arrivalImm(), bytes, link.arrivalBytes(),
                    "rank " + link.peer() + " sent a Simple-protocol chunk where this rank waits for an LL message:"
                            + " the ranks disagree on the call or on JCCL_PROTO");
        }
        int seen = lane.seenFlag();
        if (seen == 0 || (seen >>> 16 & 0x7FFF) == staleSeqBits) return;
        long now = System.nanoTime();
        if (seen != foreignFlag) {
            foreignFlag = seen;
            foreignSinceNs = now;
        } else if (now - foreignSinceNs > MISMATCH_NS) {
            throw new ExecFailure.Mismatch(link.peer(), p.channel, flag, seen, bytes, -1, String.format(
                    "LL message from rank %d on channel %d carries flag 0x%08x; expected 0x%08x (call number and fingerprint):"
                            + " the ranks called different collectives",
                    link.peer(), p.channel, seen, flag));
        }
    }

    private boolean ready(int k) {
        int[] start = p.waitStart[k];
        if (start.length < 2) return true;
        for (int i = start[0]; i < start[1]; i++) if (done[p.waitOp[k][i]] < p.waitNeed[k][i]) return false;
        return true;
    }

    private void skipFinished() {
        while (firstOpen < p.ops && done[firstOpen] != 0) firstOpen++;
    }

    private long address(int k, boolean source) {
        return source ? bind.segment(p.srcBuf[k], p.channel).address() + p.srcOff[k] * eb
                : bind.segment(p.dstBuf[k], p.channel).address() + p.dstOff[k] * eb;
    }

    String describeWaiting(Set<Integer> waitingOn) {
        StringBuilder b = new StringBuilder("LL");
        for (int k = firstOpen; k < p.ops; k++) {
            if (done[k] != 0) continue;
            b.append(p.kind[k] == SEND ? " send to " : p.kind[k] == COPY ? " copy" : " receive from ");
            if (p.peer[k] >= 0) {
                b.append("rank ").append(p.peer[k]);
                if (p.kind[k] != SEND && p.kind[k] != COPY) {
                    waitingOn.add(p.peer[k]);
                    b.append(" (").append(linesIn[k]).append(" of ").append(LlLane.lines(p.count[k] * eb)).append(" lines)");
                }
            }
        }
        return b.toString();
    }
}
