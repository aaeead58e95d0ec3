package dev.jccl.exec;

import dev.jccl.trace.Timeline;

/**
 * Records one channel's chunk transfers and reductions on the rank's {@link Timeline} (JCCL_TRACE):
 * a send spans from posting the chunk to its local completion, a receive spans the reduction or copy
 * out of the slot. Tracks are named per channel ({@code ch0 send}, {@code ch0 reduce},
 * {@code ch0 copy}). Costs one branch per chunk when the timeline is disabled. Progress thread only.
 */
final class ChunkTrace {
    private final Timeline timeline;
    private final String sendTrack;
    private final String reduceTrack;
    private final String copyTrack;
    /** Post time of each chunk of each send op; allocated only when recording. */
    private final long[][] postedNs;

    ChunkTrace(Timeline timeline, ChannelProgram p) {
        this.timeline = timeline;
        boolean on = timeline.enabled();
        // Names are built only when recording: an 8 B allreduce is a few microseconds, and three
        // string concatenations per channel per operation were a tenth of its allocation.
        this.sendTrack = on ? "ch" + p.channel + " send" : null;
        this.reduceTrack = on ? "ch" + p.channel + " reduce" : null;
        this.copyTrack = on ? "ch" + p.channel + " copy" : null;
        this.postedNs = on ? new long[p.ops][] : null;
        if (postedNs != null) {
            for (int k = 0; k < p.ops; k++) if (p.kind[k] == ChannelProgram.SEND) postedNs[k] = new long[p.chunks[k]];
        }
    }

    boolean enabled() {
        return postedNs != null;
    }

    void posted(int op, int chunk) {
        if (postedNs != null) postedNs[op][chunk] = Timeline.nowNs();
    }

    void sendCompleted(int op, int chunk, int peer, long bytes) {
        if (postedNs == null) return;
        timeline.complete(sendTrack, "chunk " + chunk + " -> rank " + peer, postedNs[op][chunk], Timeline.nowNs(), bytes + " B");
    }

    /** A chunk taken out of its slot: reduced into the target ({@code reduced}) or copied there; {@code startNs} from {@link #now()}. */
    void received(int chunk, int peer, long bytes, boolean reduced, long startNs) {
        if (postedNs == null) return;
        timeline.complete(reduced ? reduceTrack : copyTrack, "chunk " + chunk + " <- rank " + peer, startNs, Timeline.nowNs(), bytes + " B");
    }

    long now() {
        return postedNs == null ? 0 : Timeline.nowNs();
    }
}
