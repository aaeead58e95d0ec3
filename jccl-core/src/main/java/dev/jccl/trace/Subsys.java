package dev.jccl.trace;

/** Debug-log subsystems, selectable with JCCL_DEBUG_SUBSYS like NCCL_DEBUG_SUBSYS. */
public enum Subsys { INIT, NET, SHM, BOOTSTRAP, COLL, LAUNCH, ENV }
