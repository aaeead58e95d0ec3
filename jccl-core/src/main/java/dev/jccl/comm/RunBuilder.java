package dev.jccl.comm;

import dev.jccl.DataType;
import dev.jccl.ReduceOp;
import dev.jccl.exec.Bindings;
import dev.jccl.exec.ChannelProgram;
import dev.jccl.exec.Kernels;
import dev.jccl.exec.OpRun;
import dev.jccl.exec.OpSpec;
import dev.jccl.trace.Timeline;

import java.lang.foreign.MemorySegment;

/**
 * Turns an operation that reaches the head of the queue into a run: its compiled plan (cached),
 * the links its schedules need (connected now if new), its buffers bound (scratch per channel,
 * callers' memory registered through the cache), and what its receives reduce with. Progress
 * thread only.
 */
final class RunBuilder {
    private final int size;
    private final PlanCache plans;
    private final LinkTable links;
    private final Scratch scratch;
    private final Kernels kernels;
    private final UserMemory memory = new UserMemory();
    private final Timeline timeline;

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
        links.ensure(c.programs(), abort);
        MemorySegment[] scratchOf = new MemorySegment[c.programs().length];
        for (ChannelProgram p : c.programs()) {
            if (p.scratchElems() > 0) scratchOf[p.channel()] = scratch.channel(p.channel(), type.bytes(p.scratchElems()));
        }
        Bindings bindings = new Bindings(op.in, op.inOwner, op.out, op.outOwner, scratchOf, memory);
        // AVG sums like SUM; the division happens once, at the end, on this rank's result.
        boolean avg = d.op() == ReduceOp.AVG;
        ReduceOp with = d.op() == null || avg ? ReduceOp.SUM : d.op();
        OpSpec spec = new OpSpec(type, with, kernels, d.fingerprint());
        return OpRun.start(c.programs(), links, bindings, spec, avg ? op.out : null, d.count(), size, timeline);
    }
}
