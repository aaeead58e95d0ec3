package dev.jccl.algo;

import java.util.Objects;

/**
 * Receive {@code into.count()} elements from {@code peer} and either copy them into {@code into}
 * ({@link Action#COPY}) or reduce them: {@code into[i] = operand[i] (+) incoming[i]}
 * ({@link Action#REDUCE}). The local operand comes first; the operand may be {@code into} itself
 * (accumulate) or this rank's INPUT the first time a block is touched, which saves a copy.
 */
public record Recv(int peer, Span into, Action action, Span operand) {
    public enum Action { COPY, REDUCE }

    public Recv {
        Objects.requireNonNull(into, "into");
        Objects.requireNonNull(action, "action");
        if (action == Action.COPY && operand != null) {
            throw new IllegalArgumentException("a COPY receive has no operand, got " + operand);
        }
        if (action == Action.REDUCE && (operand == null || operand.count() != into.count())) {
            throw new IllegalArgumentException("a REDUCE receive into " + into + " needs an operand of the same count, got " + operand);
        }
    }

    public static Recv copy(int peer, Span into) {
        return new Recv(peer, into, Action.COPY, null);
    }

    public static Recv reduce(int peer, Span into, Span operand) {
        return new Recv(peer, into, Action.REDUCE, operand);
    }

    public long count() {
        return into.count();
    }

    @Override
    public String toString() {
        return action == Action.COPY ? "recv " + into + " <- " + peer
                : "recv " + into + " = " + operand + " (+) <- " + peer;
    }
}
