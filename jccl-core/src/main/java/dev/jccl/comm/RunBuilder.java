package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.exec.Bindings;
import dev.jccl.exec.ChannelProgram;
import dev.jccl.exec.Kernels;
import dev.jccl.exec.OpRun;
import dev.jccl.trace.Timeline;

import java.lang.foreign.MemorySegment;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Turns an operation that reaches the head of the queue into a run: its compiled plan (cached),
 * the links its schedules need (connected now if new), its buffers bound (scratch per channel,
 * callers' memory registered through the cache), and what its receives reduce with. Progress
 * thread only.
 *
 * <p>Each compiled plan has one {@link OpRun}, made with the plan's first operation and started
 * again for every later one, so an operation of a shape seen before allocates nothing here. That
 * is safe because operations run one at a time (see {@link CommEngine}) and the run itself refuses
 * to start while its last operation is unfinished.
 *
 * <p><b>Repeated calls</b> (persistent-collective behaviour): a call of the same (operation, count,
 * type, root, in place) as the one before takes the last run from a one-entry memo, without the
 * plan cache's lookup; if its buffers are the segments the run was last bound to (the same owner
 * objects, views of the same address and size), nothing is rebound either: the run and its
 * scratch are as the last call left them, since no other plan ran in between. A different shape goes through the cache and rebinds; a different segment
 * rebinds. So nothing stale is ever used: the memo's key is every field the plan depends on.
 */
final class RunBuilder {
    private final int size;
    private final PlanCache plans;
    private final LinkTable links;
    private final Scratch scratch;
    private final Kernels kernels;
    private final UserMemory memory = new UserMemory();
    private final Timeline timeline;
    private final Map<PlanCache.Compiled, OpRun> runs = new IdentityHashMap<>();
    /** Calls run on the LL protocol so far: their numbering picks the inbox slot and the flags. */
    private long llCalls;
    // The memo: the last call's shape, its plan and run, and the segments that run is bound to.
    private OpKind lastKind;
    private long lastCount;
    private DataType lastType;
    private int lastRoot;
    private boolean lastInPlace;
    private PlanCache.Compiled lastCompiled;
    private OpRun lastRun;
    private MemorySegment boundIn;
    private MemorySegment boundInOwner;
    private MemorySegment boundOut;
    private MemorySegment boundOutOwner;

    RunBuilder(int size, PlanCache plans, LinkTable links, Scratch scratch, Kernels kernels, Timeline timeline) {
        this.timeline = timeline;
        this.size = size;
        this.plans = plans;
        this.links = links;
        this.scratch = scratch;
        this.kernels = kernels;
    }

    OpRun build(Operation op, LinkTable.AbortCheck abort) {
        DataType type = runType(op);
        boolean repeated = repeats(op.kind, op.count, type, op.root, op.inPlace);
        if (!repeated) remember(op.kind, op.count, op.root, type, op.inPlace, abort);
        PlanCache.Compiled c = lastCompiled;
        OpRun run = lastRun;
        op.entry.planned(c.plan(), c.programs().length);
        op.entry.lowLatency = run.lowLatency();
        if (!repeated || !same(op.in, boundIn) || op.inOwner != boundInOwner || !same(op.out, boundOut) || op.outOwner != boundOutOwner) {
            bind(run, c, op, type);
        }
        // AVG sums like SUM; the division happens once, at the end, on this rank's result.
        boolean avg = op.redop == ReduceOp.AVG;
        ReduceOp with = op.redop == null || avg ? ReduceOp.SUM : op.redop;
        if (run.lowLatency()) run.startLl(with, op.fingerprint(), llCalls++, avg ? op.out : null, op.count, size);
        else run.start(with, op.fingerprint(), avg ? op.out : null, op.count, size);
        return run;
    }

    /**
     * Whether building {@code op}'s run would connect links: its shape has no run yet and some link its
     * schedules need is new. Compiles (and caches) its plan if need be. Progress lock held.
     */
    boolean connects(Operation op) {
        DataType type = runType(op);
        if (repeats(op.kind, op.count, type, op.root, op.inPlace)) return false;
        PlanCache.Compiled c = plans.get(op.kind, op.count, type, op.root, op.inPlace);
        return runs.get(c) == null && !links.connected(c.programs());
    }

    /**
     * Whether a call of this shape repeats the last one and that one ran on LL: then building its
     * run connects nothing and compiles nothing, so its caller may run it inline. Progress lock held.
     */
    boolean repeatsLl(OpKind kind, long count, DataType type, int root, boolean inPlace) {
        return repeats(kind, count, type, root, inPlace) && lastRun.lowLatency();
    }

    /** Whether a call of this shape is the memo's: the last call's shape, whose run and plan are at hand. */
    private boolean repeats(OpKind kind, long count, DataType type, int root, boolean inPlace) {
        return lastRun != null && kind == lastKind && count == lastCount && type == lastType && root == lastRoot && inPlace == lastInPlace;
    }

    /** The type an operation's plan and run count in: a barrier moves a one-byte token, its schedule counts elements of some type. */
    private static DataType runType(Operation op) {
        return op.kind == OpKind.BARRIER ? DataType.UINT8 : op.type;
    }

    /** Whether two views are the same memory (a call on part of a buffer makes a new view object each time). */
    private static boolean same(MemorySegment a, MemorySegment b) {
        return a == b || a != null && b != null && a.address() == b.address() && a.byteSize() == b.byteSize();
    }

    private void remember(OpKind kind, long count, int root, DataType type, boolean inPlace, LinkTable.AbortCheck abort) {
        PlanCache.Compiled c = plans.get(kind, count, type, root, inPlace);
        OpRun run = runs.get(c);
        if (run == null) {
            links.ensure(c.programs(), abort); // links are never dropped, so a plan's run keeps its links
            Bindings b = new Bindings(c.programs().length, memory);
            run = c.lowLatency() ? OpRun.prepareLl(c.programs()[0], links, b, type, kernels)
                    : OpRun.prepare(c.programs(), links, b, type, kernels, timeline);
            runs.put(c, run);
        }
        lastKind = kind;
        lastCount = count;
        lastType = type;
        lastRoot = root;
        lastInPlace = inPlace;
        lastCompiled = c;
        lastRun = run;
    }

    private void bind(OpRun run, PlanCache.Compiled c, Operation op, DataType type) {
        Bindings bindings = run.bindings();
        bindings.bind(op.in, op.inOwner, op.out, op.outOwner);
        for (ChannelProgram p : c.programs()) {
            // Scratch grows for the largest plan; asking every time hands this plan the current one.
            bindings.bindScratch(p.channel(), p.scratchElems() > 0 ? scratch.channel(p.channel(), type.bytes(p.scratchElems())) : null);
        }
        boundIn = op.in;
        boundInOwner = op.inOwner;
        boundOut = op.out;
        boundOutOwner = op.outOwner;
    }
}
