package dev.jccl.verbs.tcp;

/**
 * Which side of a queue pair opens its sockets ({@link TcpConnection}), and whether a socket that
 * reached us fits. Both sides compute the same answer from the same two published addresses.
 */
enum SocketRole {
    /** Each side opens its own sockets and writes only on them (JCCL_TCP_SHARED_SOCKETS=0, or a queue pair connected to itself). */
    SPLIT,
    /** This side opens the shared sockets: its listener address, then qpn, sorts first. */
    OPENER,
    /** This side's lanes wait for the shared sockets the peer opens. */
    ACCEPTOR;

    static SocketRole of(boolean shared, String ourGid, int ourQpn, String peerGid, int peerQpn) {
        if (!shared) return SPLIT;
        int order = ourGid.compareTo(peerGid);
        if (order == 0) order = Integer.compare(ourQpn, peerQpn);
        return order == 0 ? SPLIT : order < 0 ? OPENER : ACCEPTOR;
    }

    /** Why socket {@code h} that reached queue pair {@code qpn} with {@code laneCount} lanes does not fit this role, or null. */
    String mismatch(int qpn, HelloDescriptor.Hello h, int laneCount) {
        String reached = "qp " + qpn + " was reached by a " + (h.shared() ? "shared" : "split") + " socket of qp " + h.sourceQpn();
        String knob = " (JCCL_TCP_SHARED_SOCKETS differs between the ranks)";
        return switch (this) {
            case OPENER -> reached + ", but opens the shared sockets itself" + knob;
            case SPLIT -> h.shared() ? reached + ", but splits its sockets" + knob : null;
            case ACCEPTOR -> !h.shared() ? reached + ", but shares its sockets" + knob
                    : h.laneCount() != laneCount ? "qp " + qpn + " has " + laneCount + " lanes but qp " + h.sourceQpn() + " opens "
                    + h.laneCount() + " (JCCL_QPS_PER_CONNECTION differs between the ranks)" : null;
        };
    }
}
