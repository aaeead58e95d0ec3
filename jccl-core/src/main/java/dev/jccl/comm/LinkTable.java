package dev.jccl.comm;

import dev.jccl.bootstrap.PeerExchange;
import dev.jccl.bootstrap.Store;
import dev.jccl.bootstrap.StoreTimeoutException;
import dev.jccl.exec.ChannelProgram;
import dev.jccl.exec.FifoDescriptor;
import dev.jccl.exec.Link;
import dev.jccl.exec.LlLane;
import dev.jccl.exec.LlRun;
import dev.jccl.exec.OpRun;
import dev.jccl.trace.event.ConnectionEvent;
import dev.jccl.trace.Log;
import dev.jccl.trace.Subsys;
import dev.jccl.util.Deadline;
import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.RemoteBuffer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Every link of the communicator, by (peer, channel), connected lazily: the first operation whose
 * schedule talks to a peer on a channel connects that pair.
 *
 * <p>Why lazily and not a full mesh at init: each link pins a FIFO of JCCL_BUFFSIZE registered
 * bytes (shared memory for shm) at both ends, and a full mesh of n ranks and c channels would pin
 * (n-1)·c of them per rank, where a ring uses 2·c and a tree a few. Both ends of a link meet in the
 * same operation (their schedules are mirror images), so they connect at the same time: each side
 * first publishes every new link's queue pair and FIFO through the store, then fetches the peers',
 * so no rank waits on a rank that waits on it. Waits are bounded by JCCL_TIMEOUT and interrupted
 * when another rank has published a failure or an existing link reports its peer gone.
 *
 * <p>Used by the progress thread only.
 */
final class LinkTable implements OpRun.LinkSource, LlRun.LaneSource, AutoCloseable {
    /** Checks between slices of a wait whether the communicator failed elsewhere; throws if so. */
    interface AbortCheck {
        void check();
    }

    private final int rank;
    private final Transports transports;
    private final FifoDescriptor fifo;
    private final PeerExchange slices;
    private final long timeoutNs;
    private final Map<Long, Link> byKey = new HashMap<>();
    private final List<Link> all = new ArrayList<>();
    /** Each link's low-latency lane, made and exchanged with the link (a few hundred KiB beside its FIFO). */
    private final Map<Long, LlLane> lanes = new HashMap<>();
    private volatile boolean directReads = true;

    LinkTable(int rank, int size, Store store, Transports transports, FifoDescriptor fifo, long timeoutNs, long sliceNs) {
        this.rank = rank;
        this.transports = transports;
        this.fifo = fifo;
        this.timeoutNs = timeoutNs;
        this.slices = new PeerExchange(store, rank, size, sliceNs);
    }

    /** JCCL_DIRECT for the links made from now on (see {@code exec.DirectReads}). */
    void directReads(boolean on) {
        this.directReads = on;
    }

    @Override
    public Link link(int peer, int channel) {
        Link l = byKey.get(key(peer, channel));
        if (l == null) throw new IllegalStateException("rank " + rank + " has no link to rank " + peer + " on channel " + channel);
        return l;
    }

    @Override
    public LlLane lane(int peer, int channel) {
        LlLane l = lanes.get(key(peer, channel));
        if (l == null) throw new IllegalStateException("rank " + rank + " has no link to rank " + peer + " on channel " + channel);
        return l;
    }

    /** Connects every link the programs need that does not exist yet. */
    void ensure(ChannelProgram[] programs, AbortCheck abort) {
        if (connected(programs)) return;
        List<Link> fresh = new ArrayList<>();
        List<LlLane> freshLanes = new ArrayList<>();
        List<ConnectionEvent> setups = new ArrayList<>();
        try {
            for (ChannelProgram p : programs) {
                for (int peer : p.peers()) {
                    if (byKey.containsKey(key(peer, p.channel()))) continue;
                    setups.add(ConnectionEvent.beginIfRecording(rank, peer, p.channel()));
                    Transports.Endpoint e = transports.endpointFor(peer);
                    Link l = Link.open(e.pd(), e.index(), peer, p.channel(), fifo);
                    l.directReads(directReads);
                    fresh.add(l);
                    LlLane lane = LlLane.open(l);
                    freshLanes.add(lane);
                    slices.publishConnectInfo("c" + p.channel(), peer, l.localInfo());
                    slices.publishRemoteBuffer("fifo" + p.channel(), peer, l.slotsRemote());
                    slices.publishRemoteBuffer("ll" + p.channel(), peer, lane.inboxRemote());
                }
            }
            Deadline deadline = Deadline.after(timeoutNs);
            for (int i = 0; i < fresh.size(); i++) {
                Link l = fresh.get(i);
                ConnectInfo info = fetch(() -> slices.fetchConnectInfo("c" + l.channel(), l.peer()), l, deadline, abort);
                RemoteBuffer slots = fetch(() -> slices.fetchRemoteBuffer("fifo" + l.channel(), l.peer()), l, deadline, abort);
                l.connect(info, slots);
                freshLanes.get(i).connect(fetch(() -> slices.fetchRemoteBuffer("ll" + l.channel(), l.peer()), l, deadline, abort));
                Log.info(Subsys.NET, "rank %d -> rank %d channel %d via %s: %s", rank, l.peer(), l.channel(),
                        transports.choose(l.peer()), l.describe());
                ConnectionEvent.connected(setups.get(i), transports.choose(l.peer()), l.describe());
            }
        } catch (RuntimeException e) {
            for (Link l : fresh) l.close();
            for (LlLane lane : freshLanes) lane.close();
            throw e;
        }
        for (int i = 0; i < fresh.size(); i++) {
            Link l = fresh.get(i);
            byKey.put(key(l.peer(), l.channel()), l);
            lanes.put(key(l.peer(), l.channel()), freshLanes.get(i));
            all.add(l);
        }
    }

    /** Whether every link the programs need exists (nothing for {@link #ensure} to connect). */
    boolean connected(ChannelProgram[] programs) {
        for (ChannelProgram p : programs) {
            for (int peer : p.peers()) if (!byKey.containsKey(key(peer, p.channel()))) return false;
        }
        return true;
    }

    private interface Fetch<T> {
        T get();
    }

    private <T> T fetch(Fetch<T> f, Link l, Deadline deadline, AbortCheck abort) {
        while (true) {
            try {
                return f.get();
            } catch (StoreTimeoutException e) {
                // A peer that died shows on the links it already has long before the store times out.
                pollAll();
                abort.check();
                if (deadline.expired()) {
                    throw new ConnectTimeoutException("rank " + l.peer() + " never connected channel " + l.channel()
                            + " to rank " + rank + " within JCCL_TIMEOUT (" + timeoutNs / 1_000_000 + " ms)", l.peer());
                }
            }
        }
    }

    /** Polls every link's completion queue; returns the completions handled. */
    int pollAll() {
        int n = 0;
        for (int i = 0; i < all.size(); i++) n += all.get(i).poll();
        return n;
    }

    /** Returns every freed slot to its peer (called when this rank has nothing else to do). */
    int flushCredits() {
        int n = 0;
        for (int i = 0; i < all.size(); i++) n += all.get(i).flushCredits(true);
        return n;
    }

    /** Moves every queue pair to ERR, so every peer notices this rank has stopped. */
    void breakAll() {
        for (Link l : all) {
            try {
                l.breakLink();
            } catch (RuntimeException ignored) {
                // already broken
            }
        }
    }

    String describe() {
        StringBuilder b = new StringBuilder();
        for (Link l : all) b.append(b.isEmpty() ? "" : "; ").append(l.state());
        return b.toString();
    }

    @Override
    public void close() {
        for (Link l : all) {
            try {
                l.close();
            } catch (RuntimeException ignored) {
                // closing anyway
            }
        }
        for (LlLane lane : lanes.values()) lane.close();
        all.clear();
        byKey.clear();
        lanes.clear();
    }

    private static long key(int peer, int channel) {
        return ((long) peer << 32) | channel;
    }

    /** A peer never published its end of a link within the timeout. */
    static final class ConnectTimeoutException extends RuntimeException {
        final int peer;

        ConnectTimeoutException(String message, int peer) {
            super(message);
            this.peer = peer;
        }
    }
}
