package dev.jccl.config;

import dev.jccl.util.Sizes;
import dev.jccl.util.WaitPolicy;

import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The registry: every knob jccl reads, in one place. Names follow the NCCL knobs engineers already
 * know. Nothing else in the code reads the environment for a JCCL_ variable directly.
 */
public final class Knobs {
    private Knobs() {}

    public static final Knob<String> DEBUG = new Knob<>("JCCL_DEBUG", "WARN",
            Knobs::level, "log level: WARN, INFO or TRACE");
    public static final Knob<String> DEBUG_SUBSYS = new Knob<>("JCCL_DEBUG_SUBSYS", "ALL",
            s -> s.toUpperCase(Locale.ROOT), "comma list of subsystems to log (INIT,NET,SHM,BOOTSTRAP,COLL,ALL)");
    public static final Knob<String> DEBUG_FILE = new Knob<>("JCCL_DEBUG_FILE", "",
            s -> s, "write the debug log here instead of stderr; %h = host, %p = pid, %r = rank");
    public static final Knob<String> LOG = new Knob<>("JCCL_LOG", "auto",
            s -> oneOf(s, "auto", "stderr", "system"),
            "where log lines go: stderr (or JCCL_DEBUG_FILE), system (System.Logger, so the application's SLF4J, Log4j or "
                    + "JUL setup receives them; plus JCCL_DEBUG_FILE when set) or auto (system when the application installed "
                    + "a System.LoggerFinder or configured JUL, else stderr)");
    public static final Knob<String> TRANSPORT = new Knob<>("JCCL_TRANSPORT", "",
            s -> s.toLowerCase(Locale.ROOT), "comma list of providers to allow, in preference order (shm,tcp); empty = all");
    public static final Knob<Long> TIMEOUT_NS = new Knob<>("JCCL_TIMEOUT", "60s",
            Knobs::positiveDuration, "bound on every blocking wait (store, connect, completion)");
    public static final Knob<Integer> QPS_PER_CONNECTION = new Knob<>("JCCL_QPS_PER_CONNECTION", "2",
            s -> intIn(s, 1, 64), "sockets a tcp queue pair spreads its traffic over: with 2 or more, the first carries messages"
                    + " up to 64 KiB (small chunks, credits, acks) and the others the larger ones, so a credit never waits"
                    + " behind a bulk chunk on its stream");
    public static final Knob<Boolean> TCP_SHARED_SOCKETS = new Knob<>("JCCL_TCP_SHARED_SOCKETS", "1",
            Knobs::bool, "1 (the default): each socket of a tcp queue pair carries both directions, opened by the side whose"
                    + " listener address and qpn sort first, so TCP acknowledges one side's data on the other side's and a small"
                    + " exchange costs two segments, not four; 0 = each side opens its own sockets and writes only on them");
    /** JCCL_TCP_INLINE=auto: only queue pairs created with {@code QpInitAttr.sendBufferCompletion} complete locally (any size that left at its post). */
    public static final long TCP_INLINE_AUTO = -1;
    public static final Knob<Long> TCP_INLINE = new Knob<>("JCCL_TCP_INLINE", "auto",
            s -> isAuto(s) ? TCP_INLINE_AUTO : bytesIn(s, 0, 8 * 1024),
            "tcp SEND/WRITE requests up to this many bytes (0 to 8K) complete as soon as their frame"
                    + " reached the socket during the post, without the peer's ACK: the completion then means the buffer is free"
                    + " (payloads up to 8K are always copied at post), not that the peer has the data, and a refusal surfaces on"
                    + " the oldest request still outstanding or as the queue pair's move to ERR; 0 = every request completes on its"
                    + " ACK, as RC verbs; auto (the default): the collectives' own queue pairs (they use a send completion only to reuse"
                    + " the buffer, and their credits say what was delivered) complete any request whose one frame reached the"
                    + " socket during the post, every other queue pair is 0");
    public static final Knob<Boolean> TCP_SOCKET_WAIT = new Knob<>("JCCL_TCP_SOCKET_WAIT", "0",
            Knobs::bool, "1: a caller awaiting an operation of a tcp-only communicator sleeps on the context's sockets once it has"
                    + " spun and yielded (a peer's frame or a pushed completion wakes it), instead of a timed park; 0 = timed park");
    public static final Knob<String> TCP_CONGESTION = new Knob<>("JCCL_TCP_CONGESTION", "auto",
            Knobs::congestionControl, "TCP congestion control of the tcp provider's data sockets: auto (the default) = cubic to a"
                    + " loopback peer (no loss there, and bbr paces a collective's bursty flows below the link), the host's elsewhere;"
                    + " host = the host's everywhere; or an algorithm the kernel has, e.g. cubic on a clean network"
                    + " (bbr copes better with loss: at 5% loss cubic stalled a lane past the JCCL_HEARTBEAT silence bound)");
    public static final Knob<String> SOCKET_IFNAME = new Knob<>("JCCL_SOCKET_IFNAME", "",
            s -> s, "interface name (e.g. lo, eth0) or IP address the tcp provider binds to; empty = loopback when the store is on"
                    + " loopback, else the interface that routes to the store (MASTER_ADDR)");
    public static final Knob<String> AUTH_TOKEN = new Knob<>("JCCL_AUTH_TOKEN", "",
            s -> s, "job token every bootstrap and tcp connection must present; the launcher makes one");
    public static final Knob<String> SHM_DIR = new Knob<>("JCCL_SHM_DIR", "/dev/shm",
            s -> s, "directory for shared-memory segments of the shm provider");
    public static final Knob<Long> HEARTBEAT_NS = new Knob<>("JCCL_HEARTBEAT", "200ms",
            Knobs::positiveDuration, "how often a provider checks that its peers are alive");
    public static final Knob<Long> RNR_TIMEOUT_NS = new Knob<>("JCCL_RNR_TIMEOUT", "10ms",
            Knobs::positiveDuration, "how long a SEND waits for the peer to post a receive before RNR_RETRY_EXC");
    public static final Knob<Long> SPIN_NS = new Knob<>("JCCL_SPIN", "auto",
            s -> isAuto(s) ? WaitPolicy.AUTO_SPIN : Sizes.parseDurationNs(s),
            "how long a completion waiter busy-polls before yielding or sleeping (e.g. 0, 20us); auto = tcp spins 50us while"
                    + " the host has a core per runnable thread and no bulk transfer runs, shm only its usual few rounds; a caller"
                    + " awaiting or running its call inline spins 1 ms while every rank has a core, none when they outnumber the cores");
    public static final Knob<String> HOST_ID = new Knob<>("JCCL_HOST_ID", "",
            s -> s, "override the host identity used to group ranks by host");
    public static final Knob<Boolean> STORE_HOSTED = new Knob<>("JCCL_STORE_HOSTED", "0",
            Knobs::bool, "1 when the launcher hosts the rendezvous store itself, so rank 0 only connects to it");
    public static final Knob<String> ALGO = new Knob<>("JCCL_ALGO", "",
            s -> s.trim().toLowerCase(Locale.ROOT),
            "comma list of algorithms the tuner may choose from (ring, tree, halving_doubling, recursive_doubling, hierarchical); empty = any");
    public static final Knob<Integer> NCHANNELS = new Knob<>("JCCL_NCHANNELS", "auto",
            s -> isAuto(s) ? 0 : intIn(s, 1, 64), "channels a collective is split over, each with its own queue pairs; auto (0) = the tuner decides");
    public static final Knob<Long> CHUNKSIZE = new Knob<>("JCCL_CHUNKSIZE", "auto",
            s -> isAuto(s) ? 0L : positiveBytes(s), "bytes per chunk, the unit that pipelines across steps; auto (0) = the tuner decides");
    public static final Knob<Long> BUFFSIZE = new Knob<>("JCCL_BUFFSIZE", "4M",
            Knobs::positiveBytes, "bytes of registered slot FIFO per peer and channel; holds at least two chunks");
    public static final Knob<String> REDUCE_KERNEL = new Knob<>("JCCL_REDUCE_KERNEL", "vector",
            s -> oneOf(s, "vector", "scalar"),
            "reduction kernels: vector (Vector API; scalar if jdk.incubator.vector is not loaded) or scalar (the reference)");
    public static final Knob<String> PROTO = new Knob<>("JCCL_PROTO", "auto",
            s -> oneOf(s, "auto", "ll", "simple"), "protocol of small allreduces: LL (data and flag in every 8-byte line, polled; no"
                    + " completion or credit) or Simple (the chunk FIFO); auto = LL up to 2 KiB over shm (every rank must agree)");
    public static final Knob<Boolean> CHECKSUM = new Knob<>("JCCL_CHECKSUM", "0",
            Knobs::bool, "1 = every chunk carries a CRC-32C of its payload, checked before it is applied: silent data corruption"
                    + " fails the collective on every rank, naming sender, channel and chunk (every rank must agree)");
    public static final Knob<Boolean> DIRECT = new Knob<>("JCCL_DIRECT", "1",
            Knobs::bool, "1 = where a send's buffer is from Communicator.allocate and the peer can map it (shm), the peer reads it"
                    + " in place instead of this rank copying it into the peer's FIFO, and a receive whose result goes on to"
                    + " the next peer stores it straight into that peer's slot; 0 = always copy (for comparison)");
    public static final Knob<Boolean> CMA = new Knob<>("JCCL_CMA", "1",
            Knobs::bool, "1 = over shm, where JCCL_DIRECT is on, a peer on this host reads this rank's private send buffers (any"
                    + " native memory) in place with process_vm_readv (Linux cross-memory attach; probed per peer at connect),"
                    + " instead of this rank copying them into its FIFO; 0 = private buffers are copied, both ways");
    public static final Knob<Boolean> INLINE = new Knob<>("JCCL_INLINE", "1",
            Knobs::bool, "1 = a small allreduce on LL that repeats the last call's shape, issued while nothing else is queued, is run"
                    + " by its calling thread before the call returns (no hand-off, nothing allocated); 0 = always queued (for comparison)");
    public static final Knob<String> TRACE = new Knob<>("JCCL_TRACE", "",
            String::trim, "record a timeline per rank (collective chunks) and write it in Chrome Trace Event format (Perfetto, "
                    + "chrome://tracing) when the communicator closes, one file per rank: %r replaced by the rank, else .rankN "
                    + "before the extension (trace.rank0.json); jccl demo adds training spans and rank 0 writes every rank "
                    + "into this one file instead; empty = off");

    public static final Knob<List<String>> JAVA_OPTS = new Knob<>("JCCL_JAVA_OPTS", "",
            s -> s.isBlank() ? List.of() : List.of(s.trim().split("\\s+")),
            "extra JVM options (split at spaces) for the jccl command's JVM and every rank JVM it starts, e.g. "
                    + "-XX:StartFlightRecording=filename=/tmp/jccl-%p.jfr (%p, the pid, gives each JVM its own file)");

    public static final Knob<String> TCP_ADVERTISE = new Knob<>("JCCL_TCP_ADVERTISE", "",
            Knobs::hostPort, "ADDR:PORT that peers dial for this rank's tcp listener instead of its own address, e.g. a forwarder that"
                    + " relays ADDR:PORT to this rank's address and the same PORT; the listener then binds PORT; empty = its own"
                    + " address and an ephemeral port");

    /** All knobs, in the order devinfo -v prints them. */
    public static final List<Knob<?>> ALL = List.of(DEBUG, DEBUG_SUBSYS, DEBUG_FILE, LOG, TRANSPORT, TIMEOUT_NS,
            QPS_PER_CONNECTION, TCP_SHARED_SOCKETS, TCP_INLINE, TCP_SOCKET_WAIT, TCP_CONGESTION, SOCKET_IFNAME, AUTH_TOKEN, SHM_DIR,
            HEARTBEAT_NS, RNR_TIMEOUT_NS, SPIN_NS, HOST_ID,
            STORE_HOSTED, ALGO, NCHANNELS, CHUNKSIZE, BUFFSIZE, REDUCE_KERNEL, CHECKSUM, TRACE, JAVA_OPTS, PROTO,
            DIRECT, CMA, TCP_ADVERTISE,
            INLINE);

    private static String level(String s) {
        String v = s.trim().toUpperCase(Locale.ROOT);
        if (!List.of("WARN", "INFO", "TRACE", "NONE").contains(v)) {
            throw new IllegalArgumentException("expected WARN, INFO, TRACE or NONE");
        }
        return v;
    }

    /** Whether {@code name} can be a TCP congestion control algorithm's name (TCP_CA_NAME_MAX is 16 bytes with the NUL). */
    public static boolean congestionControlName(String name) {
        return CONGESTION_CONTROL_NAME.matcher(name).matches();
    }

    private static final Pattern CONGESTION_CONTROL_NAME = Pattern.compile("[a-z0-9_]{1,15}");

    private static String congestionControl(String s) {
        String v = s.trim().toLowerCase(Locale.ROOT);
        if (!congestionControlName(v)) {
            throw new IllegalArgumentException("'" + s + "' is not host or a congestion control algorithm's name (e.g. cubic)");
        }
        return v;
    }

    /** "" or ADDR:PORT with a port in 1..65535. */
    private static String hostPort(String s) {
        String v = s.trim();
        if (v.isEmpty()) return v;
        int colon = v.lastIndexOf(':');
        if (colon <= 0) throw new IllegalArgumentException("expected ADDR:PORT, e.g. 10.0.0.1:31000");
        intIn(v.substring(colon + 1), 1, 65535);
        return v;
    }

    private static Boolean bool(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "1", "true", "yes", "on" -> true;
            case "0", "false", "no", "off", "" -> false;
            default -> throw new IllegalArgumentException("expected 1 or 0 (true/false, yes/no, on/off)");
        };
    }

    private static Long positiveDuration(String s) {
        long ns = Sizes.parseDurationNs(s);
        if (ns <= 0) throw new IllegalArgumentException("must be positive");
        return ns;
    }

    private static boolean isAuto(String s) {
        return s.trim().equalsIgnoreCase("auto");
    }

    private static Long bytesIn(String s, long min, long max) {
        long v = Sizes.parseBytes(s);
        if (v < min || v > max) throw new IllegalArgumentException("expected bytes in [" + min + ", " + max + "]");
        return v;
    }

    private static Long positiveBytes(String s) {
        long v = Sizes.parseBytes(s);
        if (v <= 0) throw new IllegalArgumentException("must be positive (or auto where allowed)");
        return v;
    }

    private static String oneOf(String s, String... allowed) {
        String v = s.trim().toLowerCase(Locale.ROOT);
        if (!List.of(allowed).contains(v)) throw new IllegalArgumentException("expected one of " + String.join(", ", allowed));
        return v;
    }

    static int intIn(String s, int min, int max) {
        int v;
        try {
            v = Integer.parseInt(s.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("not an integer");
        }
        if (v < min || v > max) throw new IllegalArgumentException("must be in [" + min + ", " + max + "]");
        return v;
    }
}
