package dev.jccl.algo;

import java.util.Objects;

/**
 * Receive {@code into.count()} elements from {@code peer} and either copy them into {@code into}
 * ({@link Action#COPY}) or reduce them: {@code into[i] = operand[i] (+) incoming[i]}
 * ({@link Action#REDUCE}). The local operand comes first unless {@code incomingFirst}, which makes
 * it {@code incoming[i] (+) operand[i]}: two ranks that exchange partial results and both reduce
 * use it to compute the same expression, since reduce operations need not commute bit for bit. The
 * operand may be {@code into} itself (accumulate) or this rank's INPUT the first time a block is
 * touched, which saves a copy.
 */
public record Recv(int peer, Span into, Action action, Span operand, boolean incomingFirst) {
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
        if (action == Action.COPY && incomingFirst) {
            throw new IllegalArgumentException("a COPY receive into " + into + " has no operand to order");
        }
    }

    public Recv(int peer, Span into, Action action, Span operand) {
        this(peer, into, action, operand, false);
    }

    public static Recv copy(int peer, Span into) {
        return new Recv(peer, into, Action.COPY, null, false);
    }

    public static Recv reduce(int peer, Span into, Span operand) {
        return new Recv(peer, into, Action.REDUCE, operand, false);
    }

    /** Reduce with the incoming data as the first operand: {@code into[i] = incoming[i] (+) operand[i]}. */
    public static Recv reduceIncomingFirst(int peer, Span into, Span operand) {
        return new Recv(peer, into, Action.REDUCE, operand, true);
    }

    public long count() {
        return into.count();
    }

    @Override
    public String toString() {
        if (action == Action.COPY) return "recv " + into + " <- " + peer;
        return incomingFirst ? "recv " + into + " = <- " + peer + " (+) " + operand
                : "recv " + into + " = " + operand + " (+) <- " + peer;
    }
}
