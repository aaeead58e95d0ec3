package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.Work;
import dev.jccl.util.WaitPolicy;

import java.lang.foreign.MemorySegment;

/**
 * The small-call fast path: an allreduce that repeats the last call's shape on the LL protocol,
 * issued while nothing else is queued or running, is run by its caller before the call returns,
 * under the progress lock, as the progress thread would run it: no queue, no thread hand-off, no
 * wake-up. It reuses one operation, rewrites a flight-recorder slot in place and returns a shared
 * completed {@link DoneWork}, so it allocates nothing.
 *
 * <p>The caller waits for its peers as {@link WaitPolicy#inline()} says (a spin while every rank has
 * a core, a short spin and yields otherwise). If the call is not done by then it hands the call on,
 * already current, with a {@link WorkImpl} that {@code await()} finishes as any other; so issuing
 * stays bounded and a peer that is late costs one handle, not a hang. A failure fails the
 * communicator exactly as on the progress thread (the same {@link CommEngine#doWork()}), and the
 * call returns a failed handle naming rank, operation and sequence number.
 */
final class InlineCalls {
    private final CommEngine engine;
    private final OpQueue ops;
    private final ProgressHandOff progress;
    private final Operation op = new Operation();
    private final DoneWork done = new DoneWork();
    private final long spinNs;
    private final long yields;
    private final boolean enabled;
    /** Calls that finished here, and calls handed on to {@code await()} unfinished (for tests and diagnostics). */
    private long finishedHere;
    private long handedOn;
    /** Progress passes run here, counted across calls, so the links are polled every so many passes even when each call takes few. */
    private long passes;
    /** Whether the last collective issued ran here (so {@link #lastDesc()} describes it). */
    private boolean ranLast;
    /** The views of the last calls' buffers, so that calls on the first bytes of larger buffers allocate nothing either. */
    private final Views inViews = new Views();
    private final Views outViews = new Views();

    /** @param enabled JCCL_INLINE */
    InlineCalls(CommEngine engine, boolean enabled) {
        this.enabled = enabled;
        this.engine = engine;
        this.ops = engine.ops();
        this.progress = engine.progress();
        WaitPolicy.Inline w = engine.waitPolicy().inline();
        this.spinNs = w.spinNs();
        this.yields = w.yields();
    }

    /**
     * Whether an allreduce of this shape can run inline now; if so the caller holds the progress
     * lock and must call {@link #run} next. Caller holds the issue lock, so nothing is queued meanwhile.
     */
    boolean enter(long count, DataType type, boolean inPlace) {
        if (!enabled || engine.failure() != null || !progress.tryEnter()) return false;
        if (!ops.hasWork() && engine.failure() == null && ops.repeatsLl(OpKind.ALL_REDUCE, count, type, 0, inPlace)) return true;
        progress.exit();
        return false;
    }

    /** Runs the allreduce numbered {@code seq} (collective {@code match}) after {@link #enter}; leaves the progress lock. */
    Work run(long seq, long match, long count, DataType type, ReduceOp redop,
             MemorySegment in, MemorySegment inOwner, MemorySegment out, MemorySegment outOwner, boolean inPlace) {
        long start = System.nanoTime();
        long now = start;
        try {
            // Counted as a waiting caller, so the progress thread sleeps its long cede instead of waking every
            // caller grace: with more ranks than cores each such wake-up takes a core from a rank.
            progress.callerEnteredInline(start);
            Operation o = op;
            o.numbered(seq, OpKind.ALL_REDUCE, match, count, type, redop, 0);
            o.bind(in, inOwner, out, outOwner, inPlace);
            o.work = null;
            o.inlineDone = false;
            o.inlineFailure = null;
            ranLast = true;
            o.entry = engine.recorder().addInline(o, start);
            engine.startInline(o, start);
            long spinUntil = start + spinNs;
            long yielded = 0;
            while (!o.inlineDone) {
                engine.doWorkInline(++passes, now);
                if (o.inlineDone) break;
                now = System.nanoTime(); // the one clock read per pass: the pass above took the previous one
                if (now - spinUntil < 0) {
                    Thread.onSpinWait();
                } else if (yielded++ < yields) {
                    Thread.yield();
                } else {
                    handedOn++;
                    WorkImpl w = new WorkImpl(engine, seq);
                    // Under the progress lock: whoever finishes the call completes this handle. The progress
                    // thread is not woken: the caller almost always awaits next and drives it, and a wake-up
                    // takes a core from the peer this rank waits for (measured: every other call handed on,
                    // both ranks, once the wake-ups began). Nobody awaiting, the thread finds it within its
                    // deep sleep (WaitPolicy#deepSleepNs).
                    o.work = w;
                    return w;
                }
            }
            if (o.inlineFailure != null) {
                WorkImpl w = new WorkImpl(engine, seq);
                w.fail(o.inlineFailure);
                return w;
            }
            finishedHere++;
            done.seq(seq);
            return done;
        } finally {
            progress.callerLeftInline(now);
            progress.exit();
        }
    }

    /** The view of {@code in}'s first {@code bytes} this call reads ({@link Calls#view}). Caller holds the issue lock. */
    MemorySegment inView(MemorySegment in, long bytes) {
        return inViews.of(in, bytes);
    }

    /** The view of {@code out}'s first {@code bytes} this call writes. Caller holds the issue lock. */
    MemorySegment outView(MemorySegment out, long bytes) {
        return outViews.of(out, bytes);
    }

    /**
     * {@link Calls#view}, remembered for the last buffer: a view is an object, and an operation keeps it, so
     * the JIT cannot remove it. A segment is immutable, so the same buffer object and size give the same view.
     */
    private static final class Views {
        private MemorySegment seg;
        private long bytes;
        private MemorySegment view;

        MemorySegment of(MemorySegment s, long b) {
            if (s.byteSize() == b) return s;
            if (s != seg || b != bytes) {
                view = Calls.view(s, b);
                seg = s;
                bytes = b;
            }
            return view;
        }
    }

    /** {calls finished inline, calls handed on unfinished}. Caller holds the issue lock. */
    long[] counts() {
        return new long[] {finishedHere, handedOn};
    }

    /** A queued collective was issued after the last one that ran here. Caller holds the issue lock. */
    void queuedCollective() {
        ranLast = false;
    }

    /** The last collective issued, if it ran here; else null. Caller holds the issue lock. */
    OpDescriptor lastDesc() {
        return ranLast ? op.desc() : null;
    }
}
