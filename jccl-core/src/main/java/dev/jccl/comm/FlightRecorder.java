package dev.jccl.comm;

import dev.jccl.algo.Plan;
import dev.jccl.trace.event.CollectiveEvent;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The last operations of one rank: sequence number, what it was, and how far it got. Dumped into
 * every failure message and published to the store when the communicator aborts, so a hang can be
 * traced to the rank that is behind (in the spirit of PyTorch's NCCL flight recorder).
 * Thread-safe: the issuing thread adds, the progress thread updates states.
 *
 * <p>An entry also feeds JFR: while a recording wants {@link CollectiveEvent}s, starting an
 * operation begins one and ending it commits it; otherwise no event object exists.
 */
final class FlightRecorder {
    enum State { QUEUED, RUNNING, DONE, FAILED }

    static final class Entry {
        final OpDescriptor op;
        final long issuedNs = System.nanoTime();
        volatile State state = State.QUEUED;
        volatile long startedNs;
        volatile long endedNs;
        /** Whether it runs on the LL protocol (set when its run is built). */
        volatile boolean lowLatency;
        private final int rank;
        private final int ranks;
        /** Only while a recording wants it; touched by the progress thread only. */
        private CollectiveEvent event;

        Entry(OpDescriptor op, int rank, int ranks) {
            this.op = op;
            this.rank = rank;
            this.ranks = ranks;
        }

        void started() {
            startedNs = System.nanoTime();
            state = State.RUNNING;
            if (CollectiveEvent.recording()) {
                OpKind k = op.kind();
                event = CollectiveEvent.begin(rank, ranks, op.opSeq(), k.apiName(), op.matchSeq(), op.count(),
                        op.type() == null ? 0 : op.type().bytes(op.count()), op.type() == null ? "" : op.type().ncclName(),
                        op.op() == null ? "" : op.op().ncclName(), k.rooted() || k.pointToPoint() ? op.root() : -1);
            }
        }

        /** The plan the operation runs by (null for point-to-point) and its channel count. */
        void planned(Plan plan, int channels) {
            if (event != null) event.planned(plan == null ? "" : plan.algorithm().knobName(), channels);
        }

        void ended(boolean ok) {
            endedNs = System.nanoTime();
            state = ok ? State.DONE : State.FAILED;
            CollectiveEvent e = event;
            if (e != null) {
                event = null;
                e.finish(ok);
            }
        }

        String line() {
            long t = state == State.QUEUED ? 0 : (endedNs != 0 ? endedNs : System.nanoTime()) - startedNs;
            return String.format(Locale.ROOT, "seq %d %s%s %s%s", op.opSeq(), op.describe(), lowLatency ? " LL" : "", state,
                    state == State.QUEUED ? "" : String.format(Locale.ROOT, " %.3f ms", t / 1e6));
        }
    }

    private final Entry[] ring;
    private final int rank;
    private final int ranks;
    private long added; // guarded by this

    FlightRecorder(int capacity, int rank, int ranks) {
        ring = new Entry[capacity];
        this.rank = rank;
        this.ranks = ranks;
    }

    synchronized Entry add(OpDescriptor op) {
        Entry e = new Entry(op, rank, ranks);
        ring[(int) (added++ % ring.length)] = e;
        return e;
    }

    /** Oldest first. */
    synchronized List<Entry> entries() {
        List<Entry> out = new ArrayList<>();
        long from = Math.max(0, added - ring.length);
        for (long i = from; i < added; i++) out.add(ring[(int) (i % ring.length)]);
        return out;
    }

    /** "last N operations on rank r:" and one line each, oldest first. */
    String dump(int rank) {
        List<Entry> es = entries();
        StringBuilder b = new StringBuilder("last ").append(es.size()).append(" operations on rank ").append(rank).append(':');
        for (Entry e : es) b.append("\n    ").append(e.line());
        return b.toString();
    }

    /** The store form: one "STATE descriptor" line per entry (see {@link OpDescriptor#encode()}). */
    String encode() {
        StringBuilder b = new StringBuilder();
        for (Entry e : entries()) b.append(e.state).append(' ').append(e.op.encode()).append('\n');
        return b.toString();
    }

    record Published(State state, OpDescriptor op) {}

    static List<Published> decode(String text) {
        List<Published> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank()) continue;
            int sp = line.indexOf(' ');
            out.add(new Published(State.valueOf(line.substring(0, sp)), OpDescriptor.decode(line.substring(sp + 1))));
        }
        return out;
    }
}
