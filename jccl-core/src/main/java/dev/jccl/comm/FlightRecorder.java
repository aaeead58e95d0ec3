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
        /**
         * What the operation is: the queued operation itself (never reused), or for a slot reused by
         * inline calls a copy owned by the slot and rewritten with it; its descriptor is made on demand.
         */
        private final Operation source;
        /** Whether this slot may be rewritten for a later inline call once it ended (nobody else holds it). */
        private final boolean reusable;
        volatile long issuedNs;
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
            this(new Operation(), rank, ranks, false);
            source.numbered(op.opSeq(), op.kind(), op.matchSeq(), op.count(), op.type(), op.op(), op.root());
            this.issuedNs = System.nanoTime();
        }

        private Entry(Operation source, int rank, int ranks, boolean reusable) {
            this.source = source;
            this.rank = rank;
            this.ranks = ranks;
            this.reusable = reusable;
        }

        /** Rewrites this reusable slot for {@code o}, issued at {@code nowNs}; under the recorder's lock. */
        private synchronized void reuse(Operation o, long nowNs) {
            source.numbered(o.opSeq, o.kind, o.matchSeq, o.count, o.type, o.redop, o.root);
            issuedNs = nowNs;
            startedNs = 0;
            endedNs = 0;
            lowLatency = false;
            state = State.QUEUED;
        }

        /** What the operation is. */
        synchronized OpDescriptor op() {
            return source.desc();
        }

        void started() {
            started(System.nanoTime());
        }

        void started(long nowNs) {
            startedNs = nowNs;
            state = State.RUNNING;
            if (CollectiveEvent.recording()) {
                Operation o = source;
                OpKind k = o.kind;
                event = CollectiveEvent.begin(rank, ranks, o.opSeq, k.apiName(), o.matchSeq, o.count,
                        o.type == null ? 0 : o.type.bytes(o.count), o.type == null ? "" : o.type.ncclName(),
                        o.redop == null ? "" : o.redop.ncclName(), k.rooted() || k.pointToPoint() ? o.root : -1);
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
            return String.format(Locale.ROOT, "seq %d %s%s %s%s", op().opSeq(), op().describe(), lowLatency ? " LL" : "", state,
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
        return put(new Entry(op, rank, ranks));
    }

    /** Records a queued operation (its descriptor is made only if a report asks for it). */
    synchronized Entry add(Operation o) {
        Entry e = new Entry(o, rank, ranks, false);
        e.issuedNs = System.nanoTime();
        return put(e);
    }

    private Entry put(Entry e) {
        ring[(int) (added++ % ring.length)] = e;
        return e;
    }

    /**
     * Records an operation its caller runs inline ({@link InlineCalls}), issued at {@code nowNs}: the
     * slot's entry is rewritten in place when it is such an entry and has ended, so that once the
     * ring is full of them recording allocates nothing. An entry handed to a queued operation is
     * never rewritten (that operation still updates it); its slot gets a fresh entry.
     */
    synchronized Entry addInline(Operation o, long nowNs) {
        int slot = (int) (added++ % ring.length);
        Entry e = ring[slot];
        if (e == null || !e.reusable || e.state == State.QUEUED || e.state == State.RUNNING) {
            e = new Entry(new Operation(), rank, ranks, true);
            ring[slot] = e;
        }
        e.reuse(o, nowNs);
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
        for (Entry e : entries()) b.append(e.state).append(' ').append(e.op().encode()).append('\n');
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
