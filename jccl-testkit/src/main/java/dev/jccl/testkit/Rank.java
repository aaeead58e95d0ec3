package dev.jccl.testkit;

import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.QueuePair;
import dev.jccl.verbs.RemoteBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedMap;

/**
 * One rank of a {@link RankHarness}: its own context (through its {@link Endpoint}), one connected
 * queue pair per linked peer, and an in-memory all-gather for exchanging registered buffers.
 *
 * <p>Used from its rank's thread only, except for what the harness does before and after.
 */
public final class Rank {
    private final int rank;
    private final int size;
    private final Endpoint endpoint;
    private final SortedMap<Integer, QueuePair> links;
    private final RankBoard board;
    private final long timeoutNs;
    private int gatherRound;

    Rank(int rank, int size, Endpoint endpoint, SortedMap<Integer, QueuePair> links, RankBoard board, long timeoutNs) {
        this.rank = rank;
        this.size = size;
        this.endpoint = endpoint;
        this.links = links;
        this.board = board;
        this.timeoutNs = timeoutNs;
    }

    public int rank() { return rank; }
    public int size() { return size; }
    public Endpoint endpoint() { return endpoint; }
    public int left() { return (rank - 1 + size) % size; }
    public int right() { return (rank + 1) % size; }

    /** Peers this rank has a queue pair to, ascending. */
    public List<Integer> peers() {
        return List.copyOf(links.keySet());
    }

    /** The connected queue pair to {@code peer}; fails when the topology links them not. */
    public QueuePair qp(int peer) {
        QueuePair qp = links.get(peer);
        if (qp == null) throw new IllegalArgumentException("rank " + rank + " has no queue pair to rank " + peer + "; peers: " + peers());
        return qp;
    }

    /** Every rank's {@code mine}, indexed by rank. All ranks must call it the same number of times. */
    public List<byte[]> allGather(byte[] mine) throws InterruptedException {
        int round = gatherRound++;
        board.put("gather/" + round + "/" + rank, mine);
        List<byte[]> all = new ArrayList<>(size);
        for (int r = 0; r < size; r++) all.add(board.get("gather/" + round + "/" + r, timeoutNs));
        return all;
    }

    /** Every rank's registered buffer, indexed by rank, e.g. to RDMA into a peer's slots. */
    public List<RemoteBuffer> exchange(RemoteBuffer mine) throws InterruptedException {
        return allGather(mine.encode()).stream().map(RemoteBuffer::decode).toList();
    }

    /** Returns once every rank has called it (as often). */
    public void barrier() throws InterruptedException {
        allGather(new byte[0]);
    }

    /**
     * Brings every link to RTS. Infos are published first; RTR then runs peer by peer in ascending
     * order on every rank, an order consistent across ranks, so a provider whose RTR waits for the
     * peer's RTR cannot deadlock the mesh.
     */
    void connect() throws InterruptedException {
        for (var link : links.entrySet()) {
            link.getValue().modifyToInit();
            board.put(linkKey(rank, link.getKey()), link.getValue().localInfo().encode());
        }
        for (var link : links.entrySet()) {
            ConnectInfo peerInfo = ConnectInfo.decode(board.get(linkKey(link.getKey(), rank), timeoutNs));
            link.getValue().modifyToRtr(peerInfo);
            link.getValue().modifyToRts();
        }
    }

    private static String linkKey(int from, int to) {
        return "qp/" + from + "->" + to;
    }
}
