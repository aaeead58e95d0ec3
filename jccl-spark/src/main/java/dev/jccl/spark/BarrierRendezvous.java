package dev.jccl.spark;

import dev.jccl.CommOptions;
import dev.jccl.Communicator;
import dev.jccl.Jccl;
import dev.jccl.bootstrap.TcpStoreClient;
import dev.jccl.bootstrap.TcpStoreServer;
import dev.jccl.config.Config;
import dev.jccl.config.Knobs;
import dev.jccl.util.AuthHandshake;
import dev.jccl.verbs.Providers;
import org.apache.spark.BarrierTaskContext;
import org.apache.spark.BarrierTaskInfo;
import org.apache.spark.SparkConf;
import org.apache.spark.SparkEnv;
import org.apache.spark.util.TaskCompletionListener;
import org.apache.spark.util.TaskFailureListener;
import org.apache.spark.util.TaskInterruptListener;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * How the tasks of a barrier stage become the ranks of one communicator.
 *
 * <p>Task 0 hosts the rendezvous store ({@link TcpStoreServer}) and makes a fresh job token, so each
 * stage attempt is its own job and a retried attempt never meets the previous one's ranks. One
 * {@link BarrierTaskContext#allGather} carries every task's executor host and task 0's store address
 * and token; after it every task connects to the store and joins through jccl's own bootstrap. The
 * token travels over Spark's RPC, which is as private as the cluster's Spark authentication
 * ({@code spark.authenticate}) makes it.
 *
 * <p>Ranks are grouped by executor host (JCCL_HOST_ID), so tasks on one host use shm. Loopback serves
 * a single-host stage; across hosts the store and the tcp provider bind to the executor's address.
 */
final class BarrierRendezvous {
    private static final long MAX_HANDSHAKE_NS = TimeUnit.SECONDS.toNanos(10);
    private static final String SPARK_BARRIER_TIMEOUT = "spark.barrier.sync.timeout";

    private BarrierRendezvous() {}

    static Communicator join(BarrierTaskContext context, Map<String, String> knobs) {
        BarrierTaskInfo[] tasks = context.getTaskInfos();
        int rank = context.partitionId();
        String myHost = hostOf(tasks[rank]);
        boolean oneHost = Arrays.stream(tasks).map(BarrierRendezvous::hostOf).distinct().count() == 1;
        long timeoutNs = setupTimeoutNs(knobs, SparkEnv.get().conf());
        Config config = Config.fromEnvironment(knobs);
        // A JCCL_TRANSPORT naming no provider fails every task here, alike, before any joins: found
        // only inside Jccl.init, it failed task 0 while others still shook hands with its store,
        // which it then closed, and Spark could report that refusal instead of the knob.
        Providers.named(config);

        // Listeners first, so whatever is made below is released however the task ends.
        TaskResources resources = new TaskResources(timeoutNs);
        context.addTaskFailureListener((TaskFailureListener) (ctx, error) -> resources.abort());
        // Spark kills the tasks of a cancelled job without interrupting them by default; ranks that
        // are all alive would otherwise train on to the end.
        context.addTaskInterruptListener((TaskInterruptListener) (ctx, reason) -> resources.abort());
        context.addTaskCompletionListener((TaskCompletionListener) ctx -> resources.close());

        JoinMessage mine = new JoinMessage(myHost, "", 0, "");
        if (rank == 0) {
            String token = AuthHandshake.newToken();
            InetAddress bind = oneHost ? InetAddress.getLoopbackAddress() : resolve(myHost);
            TcpStoreServer server = TcpStoreServer.start(new InetSocketAddress(bind, 0), token, Math.min(timeoutNs, MAX_HANDSHAKE_NS));
            resources.server(server);
            mine = new JoinMessage(myHost, bind.getHostAddress(), server.port(), token);
        }
        JoinMessage[] all = Arrays.stream(context.allGather(mine.encode())).map(JoinMessage::decode).toArray(JoinMessage[]::new);
        JoinMessage lead = all[0];
        // A kill that came while this task had nothing to abort yet must not leave it joining alone
        // until the timeout: it checks before and after each step a kill could not reach.
        context.killTaskIfInterrupted();
        // Task 0 hosted the store before the allGather, so it is there: no need to retry for long.
        TcpStoreClient store = TcpStoreClient.connect(lead.storeHost(), lead.storePort(), lead.token(),
                Math.min(timeoutNs, MAX_HANDSHAKE_NS));
        resources.store(store);
        context.killTaskIfInterrupted();

        Map<String, String> options = new HashMap<>(knobs);
        options.put(Knobs.TIMEOUT_NS.name(), timeoutNs + "ns");
        options.put(Knobs.AUTH_TOKEN.name(), lead.token());
        // Across hosts the tcp provider must not bind to loopback, its local default.
        if (!oneHost && config.get(Knobs.SOCKET_IFNAME).isBlank()) {
            options.put(Knobs.SOCKET_IFNAME.name(), resolve(myHost).getHostAddress());
        }
        Communicator comm = Jccl.init(CommOptions.builder().rank(rank).size(tasks.length).store(store)
                .hostId(all[rank].host()).knobs(options).build());
        resources.communicator(comm);
        context.killTaskIfInterrupted();
        return comm;
    }

    /** The executor host of a task; Spark gives its address as host:port. */
    static String hostOf(BarrierTaskInfo task) {
        String address = task.address();
        int colon = address.lastIndexOf(':');
        return colon > 0 ? address.substring(0, colon) : address;
    }

    /**
     * The bound on joining: JCCL_TIMEOUT, or Spark's spark.barrier.sync.timeout (default one year,
     * the bound Spark puts on a barrier stage's own waits) when that is shorter.
     */
    static long setupTimeoutNs(Map<String, String> knobs, SparkConf conf) {
        return Math.min(Config.fromEnvironment(knobs).get(Knobs.TIMEOUT_NS), sparkBarrierTimeoutNs(conf));
    }

    private static long sparkBarrierTimeoutNs(SparkConf conf) {
        long seconds = conf.getTimeAsSeconds(SPARK_BARRIER_TIMEOUT, "365d");
        return seconds > Long.MAX_VALUE / 1_000_000_000L ? Long.MAX_VALUE : TimeUnit.SECONDS.toNanos(seconds);
    }

    private static InetAddress resolve(String host) {
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            throw new IllegalStateException("executor host " + host + " does not resolve: " + e.getMessage(), e);
        }
    }

    /** One task's contribution to the allGather; only task 0 fills the store fields. */
    record JoinMessage(String host, String storeHost, int storePort, String token) {
        String encode() {
            return String.join("\t", host, storeHost, Integer.toString(storePort), token);
        }

        static JoinMessage decode(String text) {
            String[] f = text.split("\t", -1);
            if (f.length != 4) throw new IllegalStateException("malformed jccl join message from a barrier task: '" + text + "'");
            return new JoinMessage(f[0], f[1], Integer.parseInt(f[2]), f[3]);
        }
    }

    /** What one task holds for its communicator, released by Spark's task listeners. */
    private static final class TaskResources {
        private final long timeoutNs;
        private final AtomicReference<TcpStoreServer> server = new AtomicReference<>();
        private final AtomicReference<TcpStoreClient> store = new AtomicReference<>();
        private final AtomicReference<Communicator> comm = new AtomicReference<>();

        TaskResources(long timeoutNs) {
            this.timeoutNs = timeoutNs;
        }

        void server(TcpStoreServer s) { server.set(s); }

        void store(TcpStoreClient s) { store.set(s); }

        void communicator(Communicator c) { comm.set(c); }

        /**
         * The task failed or is being killed: tell the other ranks now, so they fail rather than time
         * out. With a communicator, its abort names this rank to them. While still joining, dropping
         * the store connection (and, on task 0, the store) fails this task's join and every join
         * that waits on task 0's store.
         */
        void abort() {
            Communicator c = comm.get();
            if (c != null) {
                c.abort();
                return;
            }
            TcpStoreClient s = store.get();
            if (s != null) s.close();
            TcpStoreServer host = server.get();
            if (host != null) host.close();
        }

        /** The task ended: close what the caller left open; the store's host waits for the others to leave. */
        void close() {
            Communicator c = comm.get();
            if (c != null) c.close();
            TcpStoreClient s = store.get();
            if (s != null) s.close();
            TcpStoreServer host = server.get();
            if (host != null) {
                host.awaitNoConnections(timeoutNs);
                host.close();
            }
        }
    }
}
