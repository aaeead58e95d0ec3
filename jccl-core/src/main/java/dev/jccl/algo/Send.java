package dev.jccl.algo;

import java.util.Objects;

/** Send the elements of {@code from} to {@code peer}; the peer has a matching {@link Recv}. */
public record Send(int peer, Span from) {
    public Send {
        Objects.requireNonNull(from, "from");
    }

    @Override
    public String toString() {
        return "send " + from + " -> " + peer;
    }
}
