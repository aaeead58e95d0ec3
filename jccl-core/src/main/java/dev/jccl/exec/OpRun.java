package dev.jccl.exec;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.trace.Timeline;

import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.TreeSet;

/**
 * One operation in execution: every channel's {@link ChannelRun}, advanced together by the
 * progress thread, so channels move data in parallel. For AVG the receives sum and the division by
 * the number of contributions happens once, when every channel is done, on the final output; every
 * rank divides the same sums the same way, so results stay identical bit for bit.
 *
 * <p><b>Reused.</b> A run is {@link #prepare}d once per compiled plan (its links resolved, its
 * per-chunk counters allocated) and {@link #start}ed for every operation of that shape, with the
 * operation's buffers bound into its {@link Bindings} first. So the steady state allocates nothing
 * per call or per chunk. A run serves one operation at a time: {@code start} refuses a run whose
 * last operation has not finished, and a run that failed is never finished, so no two operations
 * can share one.
 */
public final class OpRun {
    private final ChannelRun[] channels;
    private final Bindings bindings;
    private final DataType type;
    private final Kernels kernels;
    /** The LL protocol's run, which replaces the channels; null on Simple. */
    private final LlRun ll;
    /** Whether it reads private buffers, for runs where some send may: null where none may. */
    private final PrivateReadChoice privateReads;
    private long startedNs; // what PrivateReadChoice times
    private MemorySegment avgTarget;
    private long avgCount;
    private int contributions;
    private boolean started;
    private boolean finished;

    private OpRun(ChannelRun[] channels, Bindings bindings, DataType type, Kernels kernels, LlRun ll, boolean readsPrivate) {
        this.ll = ll;
        this.channels = channels;
        this.bindings = bindings;
        this.type = type;
        this.kernels = kernels;
        this.privateReads = readsPrivate ? new PrivateReadChoice() : null;
    }

    /** Where the links of each channel come from; the runtime connects them before the run starts. */
    public interface LinkSource {
        Link link(int peer, int channel);
    }

    /**
     * Prepares a reusable run of {@code programs} moving elements of {@code type}, over links that
     * exist now.
     *
     * @param bindings what the symbolic buffers are; rebound by the caller before each {@link #start}
     * @param timeline where chunk transfers and reductions are recorded (JCCL_TRACE), or disabled
     */
    public static OpRun prepare(ChannelProgram[] programs, LinkSource links, Bindings bindings, DataType type, Kernels kernels,
                                Timeline timeline) {
        ChannelRun[] runs = new ChannelRun[programs.length];
        boolean readsPrivate = false; // only then is PrivateReadChoice consulted
        for (int c = 0; c < programs.length; c++) {
            ChannelProgram p = programs[c];
            Link[] linkOf = new Link[p.ops];
            for (int k = 0; k < p.ops; k++) if (p.peer[k] >= 0) linkOf[k] = links.link(p.peer[k], p.channel);
            boolean[] privateOk = DirectReads.privateEligible(p, linkOf, type.byteSize());
            for (boolean ok : privateOk) readsPrivate |= ok;
            runs[c] = new ChannelRun(p, linkOf, privateOk, bindings, type, kernels, new ChunkTrace(timeline, p));
        }
        return new OpRun(runs, bindings, type, kernels, null, readsPrivate);
    }

    /** Prepares a reusable run of one channel's {@code program} on the LL protocol ({@link LlRun}); start it with {@link #startLl}. */
    public static OpRun prepareLl(ChannelProgram program, LlRun.LaneSource lanes, Bindings bindings, DataType type, Kernels kernels) {
        return new OpRun(new ChannelRun[0], bindings, type, kernels, new LlRun(program, lanes, bindings, type, kernels), false);
    }

    /** {@link #start} on the LL protocol, as its call number {@code llSeq} among LL calls (the slot parity and the flags). */
    public void startLl(ReduceOp reduceWith, int fingerprint, long llSeq, MemorySegment avgTarget, long avgCount, int contributions) {
        start(reduceWith, fingerprint, avgTarget, avgCount, contributions);
        ll.reset(reduceWith, fingerprint, llSeq);
    }

    /** Whether this run is on the LL protocol. */
    public boolean lowLatency() {
        return ll != null;
    }

    /** The buffers of this run, to bind before {@link #start}. */
    public Bindings bindings() {
        return bindings;
    }

    /**
     * Starts an operation over the buffers bound now.
     *
     * @param reduceWith  what receives reduce with (SUM for AVG, whose division happens at the end)
     * @param fingerprint what every chunk of the operation carries
     * @param avgTarget   the memory to divide when the operator is AVG ({@code avgCount} elements by
     *                    {@code contributions}); null otherwise or where this rank has no result
     * @throws IllegalStateException if the run's previous operation has not finished
     */
    public void start(ReduceOp reduceWith, int fingerprint, MemorySegment avgTarget, long avgCount, int contributions) {
        if (reduceWith == ReduceOp.AVG) throw new IllegalArgumentException("receives reduce AVG as SUM; pass SUM");
        if (started && !finished) throw new IllegalStateException("run is still in use by an unfinished operation");
        this.avgTarget = avgTarget;
        this.avgCount = avgCount;
        this.contributions = contributions;
        started = true;
        finished = false;
        boolean readPrivate = privateReads != null && privateReads.begin();
        startedNs = System.nanoTime();
        for (ChannelRun c : channels) c.reset(reduceWith, fingerprint, readPrivate);
    }

    /** Runs what may run; returns the number of chunks moved. Throws {@link ExecFailure}. */
    public int advance() {
        if (finished) return 0;
        int work = 0;
        boolean all = true;
        if (ll != null) {
            work += ll.advance();
            all = ll.finished();
        }
        for (ChannelRun c : channels) {
            work += c.advance();
            all &= c.finished();
        }
        if (all) {
            if (avgTarget != null && contributions > 1) kernels.finishAvg(type, avgTarget, avgCount, contributions);
            if (privateReads != null) privateReads.end(System.nanoTime() - startedNs);
            finished = true;
            work++;
        }
        return work;
    }

    public boolean finished() {
        return finished;
    }

    /** The operations still open on each channel, and (into {@code waitingOn}) the peers they wait for. */
    public String describeWaiting(Set<Integer> waitingOn) {
        StringBuilder b = new StringBuilder(ll == null ? "" : ll.describeWaiting(waitingOn));
        for (ChannelRun c : channels) b.append(b.isEmpty() ? "" : " | ").append(c.describeWaiting(waitingOn));
        return b.toString();
    }

    /** Convenience for messages: the peers the open operations wait for. */
    public Set<Integer> waitingOn() {
        Set<Integer> s = new TreeSet<>();
        describeWaiting(s);
        return s;
    }
}
