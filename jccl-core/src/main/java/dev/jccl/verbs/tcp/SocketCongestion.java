package dev.jccl.verbs.tcp;

import dev.jccl.config.Knobs;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A socket's TCP congestion control ({@code TCP_CONGESTION}), which Java has no socket option for.
 *
 * <p>Why: bbr paces each flow at the delivery rate it last measured, and a collective's flows are
 * bursts (a chunk, then a wait for the peer's). Over loopback, 2 ranks, two interleaved rounds, a
 * 1 MiB allreduce took 912-1,053 µs with the host's bbr and 501-560 µs with cubic (256 KiB 182-320
 * against 127-284; Open MPI's tcp BTL 437-516 with bbr, 628-918 with cubic); on the namespace
 * cluster bbr held a 4-host ring 10-40% below its links' rate. So the default, {@code auto}, gives
 * loopback connections cubic: they never lose a segment, so bbr's pacing only slows them (three
 * more interleaved rounds, 1-8 MiB, medians: 426/769/1,573/3,105 µs with cubic against
 * 478/1,092/2,192/4,324 with bbr). Elsewhere it keeps the host's: with 5% loss on a namespace link,
 * cubic's retransmission back-off left a lane silent past the 3 s heartbeat bound (the peer was
 * declared lost), where bbr carried the same job.
 *
 * <p>How: the channel's file descriptor is not public, so it is found as the one socket of this
 * process with the channel's local and remote ports ({@code getsockname}/{@code getpeername} over
 * {@code /proc/self/fd}), then set with {@code setsockopt} through the foreign-function API. Where
 * any of that is missing (not Linux, no native access, an algorithm the kernel refuses) the socket
 * keeps the host's choice and the caller logs why.
 */
final class SocketCongestion {
    private static final int IPPROTO_TCP = 6;
    private static final int TCP_CONGESTION = 13;
    private static final int NAME_BYTES = 16; // TCP_CA_NAME_MAX
    private static final Native NATIVE = Native.load();

    private SocketCongestion() {}

    /** JCCL_TCP_CONGESTION's default: {@link #LOOPBACK} on loopback connections, the host's choice elsewhere. */
    static final String AUTO = "auto";
    /** What {@code auto} gives a loopback connection. */
    static final String LOOPBACK = "cubic";
    /**
     * What {@code auto} falls back to where the kernel refuses {@link #LOOPBACK}: an unprivileged
     * process may set only what {@code tcp_allowed_congestion_control} lists, and reno, loss-based
     * and unpaced like cubic, is always built in and allowed.
     */
    static final String LOOPBACK_FALLBACK = "reno";

    /**
     * What JCCL_TCP_CONGESTION asks of a data socket connected to {@code remote}: an algorithm's
     * name, or "" to leave the host's ({@code host}, or {@code auto} off loopback or where the host's
     * default is already {@link #LOOPBACK}).
     */
    static String choose(String knob, InetAddress remote, String hostDefault) {
        if (knob.equals("host")) return "";
        if (!knob.equals(AUTO)) return knob;
        return remote.isLoopbackAddress() && !hostDefault.equals(LOOPBACK) ? LOOPBACK : "";
    }

    /** The host's default for new sockets, or "" where it cannot be read. */
    static String hostDefault() {
        return readProc("tcp_congestion_control");
    }

    /** The algorithms this kernel has loaded, space-separated, or "". */
    static String available() {
        return readProc("tcp_available_congestion_control");
    }

    /** Sets {@code ch}'s algorithm; returns "" when it took, else why it did not. */
    static String set(SocketChannel ch, String algorithm) {
        return setFirst(ch, algorithm).why();
    }

    /** What {@link #setFirst} did: the algorithm the socket took ("" for none), else why the last one was refused. */
    record Outcome(String algorithm, String why) {}

    /** Sets the first of {@code algorithms} the kernel takes for {@code ch}; its descriptor is looked up once, for all of them. */
    static Outcome setFirst(SocketChannel ch, String... algorithms) {
        String why = "";
        int fd = -2; // not looked up yet
        try (Arena arena = Arena.ofConfined()) {
            for (String a : algorithms) {
                if (!Knobs.congestionControlName(a)) {
                    why = "'" + a + "' is not an algorithm name";
                    continue;
                }
                if (NATIVE == null) return new Outcome("", "no native access to setsockopt here");
                if (fd == -2) fd = fdOf(ch, arena);
                if (fd < 0) return new Outcome("", "its file descriptor was not found");
                MemorySegment name = arena.allocateFrom(a);
                MemorySegment state = arena.allocate(NATIVE.stateLayout);
                int rc = (int) NATIVE.setsockopt.invokeExact(state, fd, IPPROTO_TCP, TCP_CONGESTION, name, (int) name.byteSize());
                if (rc == 0) return new Outcome(a, "");
                why = "setsockopt(TCP_CONGESTION, " + a + ") failed, errno " + (int) NATIVE.errno.get(state, 0L);
            }
        } catch (Throwable e) {
            return new Outcome("", "setsockopt failed: " + e);
        }
        return new Outcome("", why);
    }

    /** {@code ch}'s algorithm now, or "" where it cannot be read. */
    static String get(SocketChannel ch) {
        if (NATIVE == null) return "";
        try (Arena arena = Arena.ofConfined()) {
            int fd = fdOf(ch, arena);
            if (fd < 0) return "";
            MemorySegment name = arena.allocate(NAME_BYTES);
            MemorySegment len = arena.allocateFrom(ValueLayout.JAVA_INT, NAME_BYTES);
            int rc = (int) NATIVE.getsockopt.invokeExact(fd, IPPROTO_TCP, TCP_CONGESTION, name, len);
            return rc == 0 ? name.getString(0) : "";
        } catch (Throwable e) {
            return "";
        }
    }

    /** The descriptor of the only socket with {@code ch}'s local and remote ports, or -1 (none, or more than one). */
    private static int fdOf(SocketChannel ch, Arena arena) throws Throwable {
        int localPort = ((InetSocketAddress) ch.getLocalAddress()).getPort();
        int remotePort = ((InetSocketAddress) ch.getRemoteAddress()).getPort();
        MemorySegment addr = arena.allocate(128);
        MemorySegment len = arena.allocate(ValueLayout.JAVA_INT);
        int found = -1;
        try (DirectoryStream<Path> fds = Files.newDirectoryStream(Path.of("/proc/self/fd"))) {
            for (Path p : fds) {
                int fd = Integer.parseInt(p.getFileName().toString());
                if (port(NATIVE.getsockname, fd, addr, len) != localPort || port(NATIVE.getpeername, fd, addr, len) != remotePort) continue;
                if (found >= 0) return -1;
                found = fd;
            }
        }
        return found;
    }

    /** The port of a socket's own or peer address (bytes 2-3, network order, in sockaddr_in and sockaddr_in6), or -1. */
    private static int port(MethodHandle call, int fd, MemorySegment addr, MemorySegment len) throws Throwable {
        len.set(ValueLayout.JAVA_INT, 0, (int) addr.byteSize());
        if ((int) call.invokeExact(fd, addr, len) != 0) return -1;
        return (Byte.toUnsignedInt(addr.get(ValueLayout.JAVA_BYTE, 2)) << 8) | Byte.toUnsignedInt(addr.get(ValueLayout.JAVA_BYTE, 3));
    }

    private static String readProc(String name) {
        try {
            return Files.readString(Path.of("/proc/sys/net/ipv4", name)).trim();
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** The downcalls, or none where they cannot be linked. */
    private record Native(MethodHandle setsockopt, MethodHandle getsockopt, MethodHandle getsockname, MethodHandle getpeername,
                          MemoryLayout stateLayout, VarHandle errno) {
        @SuppressWarnings("restricted") // a downcall is the point; without native access the host's algorithm stays
        static Native load() {
            if (!System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux")) return null;
            try {
                Linker linker = Linker.nativeLinker();
                var lookup = linker.defaultLookup();
                Linker.Option errno = Linker.Option.captureCallState("errno");
                MemoryLayout state = Linker.Option.captureStateLayout();
                ValueLayout i = ValueLayout.JAVA_INT;
                FunctionDescriptor opt = FunctionDescriptor.of(i, i, i, i, ValueLayout.ADDRESS, i);
                FunctionDescriptor getOpt = FunctionDescriptor.of(i, i, i, i, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
                FunctionDescriptor name = FunctionDescriptor.of(i, i, ValueLayout.ADDRESS, ValueLayout.ADDRESS);
                return new Native(linker.downcallHandle(lookup.find("setsockopt").orElseThrow(), opt, errno),
                        linker.downcallHandle(lookup.find("getsockopt").orElseThrow(), getOpt),
                        linker.downcallHandle(lookup.find("getsockname").orElseThrow(), name),
                        linker.downcallHandle(lookup.find("getpeername").orElseThrow(), name),
                        state, state.varHandle(MemoryLayout.PathElement.groupElement("errno")));
            } catch (RuntimeException | LinkageError e) {
                return null;
            }
        }
    }
}
