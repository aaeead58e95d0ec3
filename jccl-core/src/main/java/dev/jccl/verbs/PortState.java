package dev.jccl.verbs;

public enum PortState { ACTIVE, DOWN }
