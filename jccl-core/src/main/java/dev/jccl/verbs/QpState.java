package dev.jccl.verbs;

/** Queue pair states, as in {@code ibv_qp_state}; RC moves RESET → INIT → RTR → RTS, any → ERR. */
public enum QpState { RESET, INIT, RTR, RTS, ERR }
