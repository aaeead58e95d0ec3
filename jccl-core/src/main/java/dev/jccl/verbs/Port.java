package dev.jccl.verbs;

/**
 * One port of a device.
 *
 * @param number      1-based port number
 * @param state       ACTIVE when traffic can flow
 * @param mtu         largest payload one packet or fragment carries, in bytes
 * @param linkRate    human-readable rate, e.g. "25 Gb/s (memory)" or "10 Gb/s"
 * @param address     what peers use to reach it: an IP address for tcp, a host id for shm
 */
public record Port(int number, PortState state, int mtu, String linkRate, String address) {}
