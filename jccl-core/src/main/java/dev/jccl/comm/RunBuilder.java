package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.exec.Bindings;
import dev.jccl.exec.ChannelProgram;
import dev.jccl.exec.Kernels;
import dev.jccl.exec.OpRun;
import dev.jccl.trace.Timeline;

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

    RunBuilder(int size, PlanCache plans, LinkTable links, Scratch scratch, Kernels kernels, Timeline timeline) {
        this.timeline = timeline;
        this.size = size;
        this.plans = plans;
        this.links = links;
        this.scratch = scratch;
        this.kernels = kernels;
    }

    OpRun build(Operation op, LinkTable.AbortCheck abort) {
        OpDescriptor d = op.desc;
        // A barrier moves a one-byte token; its schedule counts elements of some type.
        DataType type = d.kind() == OpKind.BARRIER ? DataType.UINT8 : d.type();
        PlanCache.Compiled c = plans.get(d.kind(), d.count(), type, d.root(), op.inPlace);
        op.entry.planned(c.plan(), c.programs().length);
        OpRun run = runs.get(c);
        if (run == null) {
            links.ensure(c.programs(), abort); // links are never dropped, so a plan's run keeps its links
            run = OpRun.prepare(c.programs(), links, new Bindings(c.programs().length, memory), type, kernels, timeline);
            runs.put(c, run);
        }
        Bindings bindings = run.bindings();
        bindings.bind(op.in, op.inOwner, op.out, op.outOwner);
        for (ChannelProgram p : c.programs()) {
            // Scratch grows for the largest plan; asking every time hands this plan the current one.
            bindings.bindScratch(p.channel(), p.scratchElems() > 0 ? scratch.channel(p.channel(), type.bytes(p.scratchElems())) : null);
        }
        // AVG sums like SUM; the division happens once, at the end, on this rank's result.
        boolean avg = d.op() == ReduceOp.AVG;
        ReduceOp with = d.op() == null || avg ? ReduceOp.SUM : d.op();
        run.start(with, d.fingerprint(), avg ? op.out : null, d.count(), size);
        return run;
    }
}
