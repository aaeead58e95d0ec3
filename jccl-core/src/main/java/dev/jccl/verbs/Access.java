package dev.jccl.verbs;

/** Access rights of a memory region, as in {@code ibv_access_flags}. */
public enum Access { LOCAL_WRITE, REMOTE_WRITE, REMOTE_READ }
