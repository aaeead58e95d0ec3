package dev.jccl.comm;

import dev.jccl.exec.ExecFailure;
import dev.jccl.trace.event.FailureEvent;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The failure fan-out across ranks. It notices what the links cannot show: an operation that made
 * no progress for JCCL_TIMEOUT, and another rank's failure published in the store (read while this
 * rank is idle or stalled, every JCCL_TIMEOUT/20). It turns whatever stopped this rank into the
 * communicator's {@link Failure}: decides which failure was first (this rank's, published with a
 * compare-and-set, or another rank's, adopted), breaks every link so the peers notice, gathers
 * every rank's flight recorder (bounded) and builds the report. Runs on the progress thread, when
 * a pass found nothing to do or after the failure; nothing here is on the hot path.
 */
final class Failures {
    /** Another rank published a failure. */
    static final class AbortSeen extends RuntimeException {
        final AbortRecord record;

        AbortSeen(AbortRecord record) {
            super(record.reason(), null, false, false);
            this.record = record;
        }
    }

    /** The current collective waits for a rank that closed its communicator before it. */
    static final class PeerClosed extends RuntimeException {
        final AbortBoard.Closed closed;

        PeerClosed(AbortBoard.Closed closed) {
            super("rank " + closed.rank() + " closed its communicator", null, false, false);
            this.closed = closed;
        }
    }

    /** The current operation made no progress for JCCL_TIMEOUT. */
    static final class StallTimeout extends RuntimeException {
        final long stalledNs;

        StallTimeout(long stalledNs) {
            super("no progress for " + stalledNs + " ns", null, false, false);
            this.stalledNs = stalledNs;
        }
    }

    private final int rank;
    private final int size;
    private final long timeoutNs;
    private final long pollNs;
    private final long gatherNs;
    private final AbortBoard board;
    private final LinkTable links;
    private final FlightRecorder recorder;
    private final List<String> hostOf;
    private final boolean remoteStore;
    private long lastBoardPollNs; // progress thread only
    private CompletableFuture<AbortBoard.Snapshot> polling; // guarded by this: the board read in flight
    private volatile List<AbortBoard.Closed> closedPeers = List.of();

    /**
     * @param remoteStore whether the store is across a network (a store client) and can be cut off;
     *                    an in-process store is read on the calling thread, which allocates nothing
     */
    Failures(int rank, int size, long timeoutNs, AbortBoard board, LinkTable links, FlightRecorder recorder, List<String> hostOf,
             boolean remoteStore) {
        this.hostOf = List.copyOf(hostOf);
        this.remoteStore = remoteStore;
        this.rank = rank;
        this.size = size;
        this.timeoutNs = timeoutNs;
        this.pollNs = Math.clamp(timeoutNs / 20, 10_000_000L, 250_000_000L);
        this.gatherNs = Math.clamp(timeoutNs / 2, 200_000_000L, 3_000_000_000L);
        this.board = board;
        this.links = links;
        this.recorder = recorder;
    }

    int rank() { return rank; }
    FlightRecorder recorder() { return recorder; }

    /** Nothing progressed in a pass: times out a stuck operation, and looks at the board now and then. */
    void watchIdle(long now, Operation current, long lastProgressNs) {
        if (current != null && now - lastProgressNs > timeoutNs) throw new StallTimeout(now - lastProgressNs);
        if ((current == null || now - lastProgressNs > pollNs) && now - lastBoardPollNs > pollNs) {
            lastBoardPollNs = now;
            checkBoard();
            checkClosedPeers(current);
        }
    }

    /** A collective numbered at or past a closed rank's count of collectives is one it will never join. */
    private void checkClosedPeers(Operation current) {
        if (current == null || current.kind == null || current.kind.pointToPoint()) return;
        for (AbortBoard.Closed c : closedPeers) {
            if (current.matchSeq >= c.collectives()) throw new PeerClosed(c);
        }
    }

    /**
     * Throws {@link AbortSeen} when another rank has published a failure. The read waits at most
     * {@link StoreBound#POLL_NS}: a store cut off from this host (its link down) must not hold the
     * progress thread, which has the links' own failures to notice; the read stays in flight and is
     * looked at again next time.
     */
    synchronized void checkBoard() {
        Optional<AbortBoard.Snapshot> rec;
        try {
            if (!remoteStore) {
                rec = Optional.of(board.snapshot());
            } else {
                if (polling == null) polling = StoreBound.start(board::snapshot);
                rec = StoreBound.await(polling, StoreBound.POLL_NS);
            }
        } catch (RuntimeException storeDown) {
            polling = null;
            throw storeDown;
        }
        if (rec.isEmpty()) return;
        polling = null;
        closedPeers = rec.get().closed();
        if (rec.get().abort().isPresent()) throw new AbortSeen(rec.get().abort().get());
    }

    /** Whether nothing progressed since {@code lastProgressNs} for JCCL_TIMEOUT plus a grace period (the progress thread should have failed it by then). */
    boolean stalledBeyondTimeout(long lastProgressNs) {
        return System.nanoTime() - lastProgressNs > timeoutNs + Math.min(timeoutNs, 2_000_000_000L);
    }

    /** The application aborted: tells the other ranks (if the store still answers), breaks every link, and returns the failure. */
    Failure abortedHere() {
        AbortRecord mine = new AbortRecord(Failure.Kind.ABORTED, rank, -1, "rank " + rank + " aborted the communicator");
        AbortRecord first;
        try {
            first = board.raise(mine);
        } catch (RuntimeException storeDown) {
            first = mine; // the other ranks learn of it from the broken links
        }
        links.breakAll();
        // Another rank's failure published first is the cause, and this abort only followed it (a
        // Spark task killed because a sibling failed, say): callers are told of that rank, not of this one.
        String why = first == mine ? mine.reason() : first.reason() + " (then rank " + rank + " aborted the communicator)";
        return new Failure(first.kind(), "rank " + rank + ": " + why + "\n" + recorder.dump(rank), first.lostRank(), null);
    }

    Failure handle(Throwable t, Operation op) {
        OpDescriptor mine = op == null ? null : op.desc();
        Set<Integer> waitingOn = new TreeSet<>();
        String localState = op == null || op.run == null ? null : "waiting: " + op.run.describeWaiting(waitingOn);
        AbortRecord first;
        boolean storeAnswers = true;
        try {
            Optional<AbortRecord> published = StoreBound.call(() -> first(t, mine, waitingOn), StoreBound.ANSWER_NS);
            storeAnswers = published.isPresent();
            first = published.orElseGet(() -> unpublished(t, mine, "the store did not answer within "
                    + StoreBound.ANSWER_NS / 1_000_000 + " ms"));
        } catch (RuntimeException storeDown) {
            storeAnswers = false;
            first = unpublished(t, mine, "the store failed too: " + storeDown.getMessage());
        }
        links.breakAll();
        Map<Integer, List<FlightRecorder.Published>> recs = Map.of(rank, FlightRecorder.decode(recorder.encode()));
        if (storeAnswers) {
            Set<Integer> lost = lostWith(first);
            try {
                recs = StoreBound.call(() -> {
                    board.publishRecorder(recorder);
                    return board.gatherRecorders(gatherNs, lost);
                }, gatherNs + StoreBound.ANSWER_NS).orElse(recs);
            } catch (RuntimeException storeDown) {
                // the report names the ranks that did not answer
            }
        }
        boolean expected = t instanceof AbortSeen || t instanceof StallTimeout || t instanceof ExecFailure || t instanceof PeerClosed;
        Failure f = FailureReport.build(first, rank, size, recs, mine, localState, recorder.dump(rank), expected ? null : t);
        record(rank, f, mine);
        return f;
    }

    /**
     * The ranks not worth waiting for: the lost rank and every rank of its host, which die together
     * when the host does (what they published already still goes into the report).
     */
    private Set<Integer> lostWith(AbortRecord first) {
        Set<Integer> lost = new TreeSet<>();
        if (first.kind() != Failure.Kind.PEER_LOST || first.lostRank() < 0 || first.lostRank() >= size) return lost;
        for (int r = 0; r < size; r++) {
            if (r != rank && hostOf.get(r).equals(hostOf.get(first.lostRank()))) lost.add(r);
        }
        return lost;
    }

    private AbortRecord closedBefore(AbortBoard.Closed c, String where) {
        return new AbortRecord(Failure.Kind.PEER_LOST, rank, c.rank(), "rank " + c.rank() + " closed its communicator after "
                + (c.collectives() == 0 ? "issuing no collective" : c.collectives() + " collectives, the last " + c.last())
                + "; " + where + " needs it");
    }

    /** This rank's failure as it would have published it, when the store cannot take it. */
    private AbortRecord unpublished(Throwable t, OpDescriptor mine, String why) {
        if (t instanceof AbortSeen a) return a.record;
        String where = mine == null ? "between operations" : mine.describe() + " (seq " + mine.opSeq() + " on rank " + rank + ")";
        if (t instanceof PeerClosed p) return closedBefore(p.closed, where);
        if (t instanceof ExecFailure.LinkLost l && l.peerGone()) {
            return new AbortRecord(Failure.Kind.PEER_LOST, rank, l.peer(), "rank " + rank + " lost its link to rank " + l.peer()
                    + " in " + where + ": " + l.getMessage() + " (" + why + ")");
        }
        return new AbortRecord(Failure.Kind.ERROR, rank, -1, t + " (" + why + ")");
    }

    /** The JFR event of a failure this rank ends with; {@code op} is the operation in flight, if any. */
    static void record(int rank, Failure f, OpDescriptor op) {
        FailureEvent.record(rank, f.kind().name(), op == null ? "" : op.kind().apiName(), op == null ? -1 : op.opSeq(),
                f.lostRank(), f.message());
    }

    /** This rank's failure, published unless another rank's came first, or the one another rank published. */
    private AbortRecord first(Throwable t, OpDescriptor mine, Set<Integer> waitingOn) {
        String where = mine == null ? "between operations" : mine.describe() + " (seq " + mine.opSeq() + " on rank " + rank + ")";
        return switch (t) {
            case AbortSeen a -> a.record;
            case PeerClosed p -> board.raise(closedBefore(p.closed, where));
            case ExecFailure.Mismatch m -> board.raise(new AbortRecord(Failure.Kind.MISMATCH, rank, -1,
                    "detected by rank " + rank + " in " + where + ": " + m.getMessage()));
            case ExecFailure.Corrupt c -> board.raise(new AbortRecord(Failure.Kind.ERROR, rank, -1,
                    "data corruption detected by rank " + rank + " in " + where + ": " + c.getMessage()));
            case ExecFailure.LinkLost l -> board.poll().orElseGet(() -> board.raise(l.peerGone()
                    ? new AbortRecord(Failure.Kind.PEER_LOST, rank, l.peer(), "rank " + rank + " lost its link to rank " + l.peer()
                            + " in " + where + ": " + l.getMessage())
                    : new AbortRecord(Failure.Kind.ERROR, rank, -1, "transport error in " + where + ": " + l.getMessage())));
            case StallTimeout s -> board.raise(new AbortRecord(Failure.Kind.TIMEOUT, rank, -1, where + " made no progress for "
                    + s.stalledNs / 1_000_000 + " ms (JCCL_TIMEOUT)" + (waitingOn.isEmpty() ? ""
                    : "; rank " + rank + " waits on " + FailureReport.ranks(List.copyOf(waitingOn)))));
            case LinkTable.ConnectTimeoutException c -> board.raise(new AbortRecord(Failure.Kind.TIMEOUT, rank, -1,
                    where + " could not start: " + c.getMessage()));
            default -> board.raise(new AbortRecord(Failure.Kind.ERROR, rank, -1, where + " failed on rank " + rank + ": " + t));
        };
    }
}
