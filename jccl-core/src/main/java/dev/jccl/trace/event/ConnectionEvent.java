package dev.jccl.trace.event;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * JFR event {@code dev.jccl.Connection}: one link (peer, channel) set up, from opening its queue
 * pair until it was connected to the peer's, which includes waiting for the peer to publish its
 * end. Says what the INFO log says: the provider and the queue pair's own description (the peer's
 * address for tcp, the shared file for shm).
 */
@Name("dev.jccl.Connection")
@Label("Connection")
@Category("jccl")
@Description("One link to a peer set up: provider and address")
@StackTrace(false)
public final class ConnectionEvent extends Event {
    private static final ConnectionEvent PROBE = new ConnectionEvent();

    @Label("Rank")
    private int rank;
    @Label("Peer")
    private int peer;
    @Label("Channel")
    private int channel;
    @Label("Provider") @Description("shm, tcp, ...")
    private String provider;
    @Label("Address") @Description("QueuePair.describe(): the peer's queue pair and address, and the path used")
    private String address;

    /** Whether a recording wants these events now; reads one flag and allocates nothing. */
    public static boolean recording() {
        return PROBE.isEnabled();
    }

    /** Starts the event of a link being opened; null when no recording wants it. */
    public static ConnectionEvent beginIfRecording(int rank, int peer, int channel) {
        if (!recording()) return null;
        ConnectionEvent e = new ConnectionEvent();
        e.rank = rank;
        e.peer = peer;
        e.channel = channel;
        e.begin();
        return e;
    }

    /** Ends and commits the event of {@code e} (null: nothing records) once the link is connected. */
    public static void connected(ConnectionEvent e, String provider, String address) {
        if (e == null) return;
        e.provider = provider;
        e.address = address;
        e.end();
        if (e.shouldCommit()) e.commit();
    }
}
