package dev.jccl.verbs.base;

import dev.jccl.verbs.QpState;

/**
 * The RC state machine: RESET → INIT → RTR → RTS, and any state → ERR.
 *
 * <p>The state is volatile: receiver threads read it to decide whether to process or flush, while
 * the owning thread changes it. Transitions are synchronized so two threads racing into ERR flush
 * once.
 */
public final class QpStateMachine {
    private final int qpn;
    private volatile QpState state = QpState.RESET;

    public QpStateMachine(int qpn) {
        this.qpn = qpn;
    }

    public QpState state() {
        return state;
    }

    public synchronized void toInit() {
        move(QpState.RESET, QpState.INIT);
    }

    public synchronized void toRtr() {
        move(QpState.INIT, QpState.RTR);
    }

    public synchronized void toRts() {
        move(QpState.RTR, QpState.RTS);
    }

    /** Returns true if this call moved the queue pair into ERR (so the caller flushes exactly once). */
    public synchronized boolean toErr() {
        if (state == QpState.ERR) return false;
        state = QpState.ERR;
        return true;
    }

    /** Receives may be posted from INIT on (and are flushed in ERR). */
    public boolean canPostRecv() {
        QpState s = state;
        return s == QpState.INIT || s == QpState.RTR || s == QpState.RTS || s == QpState.ERR;
    }

    /** Sends may be posted in RTS (and are flushed in ERR). */
    public boolean canPostSend() {
        QpState s = state;
        return s == QpState.RTS || s == QpState.ERR;
    }

    private void move(QpState from, QpState to) {
        if (state != from) {
            throw new IllegalStateException("qp " + qpn + ": illegal transition " + state + " -> " + to
                    + " (only " + from + " -> " + to + " is allowed)");
        }
        state = to;
    }
}
