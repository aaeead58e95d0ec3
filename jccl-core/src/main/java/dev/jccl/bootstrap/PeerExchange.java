package dev.jccl.bootstrap;

import dev.jccl.verbs.ConnectInfo;
import dev.jccl.verbs.RemoteBuffer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The exchanges ranks make through the store while they connect: an all-gather of one blob per
 * rank, and the per-pair swap of queue-pair {@link ConnectInfo} and {@link RemoteBuffer}s.
 *
 * <p>Key layout (under whatever {@link PrefixStore} the caller gives):
 * {@code allgather/<tag>/<n>/<rank>}, {@code qp/<channel>/<from>-><to>},
 * {@code buf/<name>/<from>-><to>}. Every wait is bounded by the timeout given here; a timeout names
 * the rank that never published. Not thread-safe: all ranks call {@link #allGather} with the same
 * tags in the same order, which is what numbers the rounds.
 */
public final class PeerExchange {
    private final Store store;
    private final int rank;
    private final int worldSize;
    private final long timeoutNs;
    private final Map<String, Integer> allGatherRounds = new HashMap<>();

    public PeerExchange(Store store, int rank, int worldSize, long timeoutNs) {
        if (worldSize < 1 || rank < 0 || rank >= worldSize) {
            throw new IllegalArgumentException("rank " + rank + " outside [0, " + worldSize + ")");
        }
        StoreLimits.checkTimeout(timeoutNs);
        this.store = store;
        this.rank = rank;
        this.worldSize = worldSize;
        this.timeoutNs = timeoutNs;
    }

    /** Publishes {@code mine} and returns every rank's blob, indexed by rank. Each call is a fresh round. */
    public List<byte[]> allGather(String tag, byte[] mine) {
        int round = allGatherRounds.merge(tag, 1, Integer::sum) - 1;
        String base = "allgather/" + tag + "/" + round + "/";
        store.set(base + rank, mine);
        List<String> keys = IntStream.range(0, worldSize).mapToObj(r -> base + r).toList();
        try {
            store.wait(keys, timeoutNs);
        } catch (StoreTimeoutException e) {
            List<Integer> missing = e.missingKeys().stream().filter(k -> k.startsWith(base))
                    .map(k -> Integer.parseInt(k.substring(base.length()))).toList();
            throw new StoreTimeoutException("all-gather '" + tag + "' round " + round + ": " + ranks(missing)
                    + " never published within " + StoreTimeoutException.seconds(e.waitedNs()) + " (this is rank "
                    + rank + " of " + worldSize + ")", e.missingKeys(), e.waitedNs());
        }
        List<byte[]> all = new ArrayList<>(worldSize);
        for (String k : keys) all.add(store.get(k, timeoutNs));
        return all;
    }

    /** Publishes this rank's end of the {@code channel} connection to {@code peer}. */
    public void publishConnectInfo(String channel, int peer, ConnectInfo mine) {
        store.set(pairKey("qp", channel, rank, checkPeer(peer)), mine.encode());
    }

    /** Waits for {@code peer}'s end of the {@code channel} connection to this rank. */
    public ConnectInfo fetchConnectInfo(String channel, int peer) {
        return fetch(pairKey("qp", channel, checkPeer(peer), rank), peer, "queue-pair info", ConnectInfo::decode);
    }

    /** Publishes mine, then fetches the peer's: both sides call this with each other's rank. */
    public ConnectInfo exchangeConnectInfo(String channel, int peer, ConnectInfo mine) {
        publishConnectInfo(channel, peer, mine);
        return fetchConnectInfo(channel, peer);
    }

    public void publishRemoteBuffer(String name, int peer, RemoteBuffer mine) {
        store.set(pairKey("buf", name, rank, checkPeer(peer)), mine.encode());
    }

    public RemoteBuffer fetchRemoteBuffer(String name, int peer) {
        return fetch(pairKey("buf", name, checkPeer(peer), rank), peer, "remote buffer", RemoteBuffer::decode);
    }

    public RemoteBuffer exchangeRemoteBuffer(String name, int peer, RemoteBuffer mine) {
        publishRemoteBuffer(name, peer, mine);
        return fetchRemoteBuffer(name, peer);
    }

    static String pairKey(String kind, String name, int from, int to) {
        return kind + "/" + name + "/" + from + "->" + to;
    }

    private <T> T fetch(String key, int peer, String what, Function<byte[], T> decode) {
        byte[] bytes;
        try {
            bytes = store.get(key, timeoutNs);
        } catch (StoreTimeoutException e) {
            throw new StoreTimeoutException("rank " + peer + " never published its " + what + " for rank " + rank
                    + " ('" + key + "') within " + StoreTimeoutException.seconds(e.waitedNs()), e.missingKeys(), e.waitedNs());
        }
        try {
            return decode.apply(bytes);
        } catch (IllegalArgumentException e) {
            throw new StoreException("rank " + peer + " published malformed " + what + " under '" + key + "': " + e.getMessage(), e);
        }
    }

    private int checkPeer(int peer) {
        if (peer < 0 || peer >= worldSize) throw new IllegalArgumentException("peer rank " + peer + " outside [0, " + worldSize + ")");
        return peer;
    }

    static String ranks(List<Integer> ranks) {
        int shown = Math.min(ranks.size(), 16);
        String list = ranks.subList(0, shown).stream().map(String::valueOf).collect(Collectors.joining(", "));
        return (ranks.size() == 1 ? "rank " : "ranks ") + list + (ranks.size() > shown ? " and " + (ranks.size() - shown) + " more" : "");
    }
}
