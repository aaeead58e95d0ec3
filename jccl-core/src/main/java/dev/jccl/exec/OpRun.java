package dev.jccl.exec;

import dev.jccl.trace.Timeline;

import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.TreeSet;

/**
 * One operation in execution: every channel's {@link ChannelRun}, advanced together by the
 * progress thread, so channels move data in parallel. For AVG the receives sum and the division by
 * the number of contributions happens once, when every channel is done, on the final output; every
 * rank divides the same sums the same way, so results stay identical bit for bit.
 */
public final class OpRun {
    private final ChannelRun[] channels;
    private final OpSpec spec;
    private final MemorySegment avgTarget;
    private final long avgCount;
    private final int contributions;
    private boolean finished;

    private OpRun(ChannelRun[] channels, OpSpec spec, MemorySegment avgTarget, long avgCount, int contributions) {
        this.channels = channels;
        this.spec = spec;
        this.avgTarget = avgTarget;
        this.avgCount = avgCount;
        this.contributions = contributions;
    }

    /** Where the links of each channel come from; the runtime connects them before the run starts. */
    public interface LinkSource {
        Link link(int peer, int channel);
    }

    /**
     * Prepares a run.
     *
     * @param avgTarget the memory to divide when the operator is AVG ({@code avgCount} elements by
     *                  {@code contributions}); null otherwise or where this rank has no result
     * @param timeline  where chunk transfers and reductions are recorded (JCCL_TRACE), or disabled
     */
    public static OpRun start(ChannelProgram[] programs, LinkSource links, Bindings bindings, OpSpec spec,
                              MemorySegment avgTarget, long avgCount, int contributions, Timeline timeline) {
        ChannelRun[] runs = new ChannelRun[programs.length];
        for (int c = 0; c < programs.length; c++) {
            ChannelProgram p = programs[c];
            Link[] linkOf = new Link[p.ops];
            for (int k = 0; k < p.ops; k++) if (p.peer[k] >= 0) linkOf[k] = links.link(p.peer[k], p.channel);
            runs[c] = new ChannelRun(p, linkOf, bindings, spec, new ChunkTrace(timeline, p));
        }
        return new OpRun(runs, spec, avgTarget, avgCount, contributions);
    }

    /** Runs what may run; returns the number of chunks moved. Throws {@link ExecFailure}. */
    public int advance() {
        if (finished) return 0;
        int work = 0;
        boolean all = true;
        for (ChannelRun c : channels) {
            work += c.advance();
            all &= c.finished();
        }
        if (all) {
            if (avgTarget != null && contributions > 1) {
                spec.kernels().finishAvg(spec.type(), avgTarget, avgCount, contributions);
            }
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
        StringBuilder b = new StringBuilder();
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
