package dev.jccl.util;

import java.util.concurrent.locks.LockSupport;

/**
 * Every decision about waiting, in one place: who spins, for how long, when a thread yields or
 * parks, and why. Built once from JCCL_SPIN and the number of ranks sharing this host's cores
 * ({@code Config.waitPolicy}); immutable. The mechanisms live beside it: {@link BackoffIdleStrategy}
 * (spin, yield, park), {@link TimerSlack} (a shorter park), {@link HostLoad} (a spare core now?).
 *
 * <p>Two facts drive it all. A peer in another process cannot wake a parked thread (shared-memory
 * progress is noticed only by looking), so once both ends of an exchange park, every message costs
 * a park. And with more ranks than cores, a spinning waiter steals the core from the very peer it
 * waits for.
 *
 * <table>
 *   <caption>Who waits, and how</caption>
 *   <tr><th>who</th><th>spins</th><th>then</th><th>why</th></tr>
 *   <tr><td>a caller in {@code Work.await()} ({@link #caller(boolean)}); it drives progress itself, so
 *       issue-and-await costs no thread hand-off</td>
 *       <td>200 rounds, and at least JCCL_SPIN; {@code auto}: 1 ms, or where a transport moves data
 *       on threads of its own (tcp), 1 ms only while {@link HostLoad} sees a core per runnable
 *       thread. With more ranks on the host than cores: no rounds, and {@code auto} spins nothing</td>
 *       <td>2,000 yields, then parks of 1 µs doubling to 100 µs with the timer slack cut to 1 µs</td>
 *       <td>a round polls every link (~0.5-1 µs): 4 ranks on 2 cores measured 85-100 µs per 8 B
 *       allreduce with 100 rounds, 19-21 µs yielding at once, 600 µs with 1,000. With the default
 *       50 µs slack a 1 µs park slept ~100 µs (106 µs median against 39 µs with 1 µs). The yields
 *       (about 1 ms on an idle core) matter when every rank has a core too: with 200, two ranks fell
 *       into taking turns, one parked while the other spun out its inline wait and parked in turn,
 *       and whole runs sat at 150-200 µs per 8 B call (2 of 3 runs) instead of ~1 µs. A yield gives
 *       the core to whoever needs it and returns at once when nobody does, so the rank that is
 *       answered is awake. 50 µs of spin (and 100 µs inline, below) still let two ranks fall into it at
 *       a new call shape on a loaded host: 2 ranks, 4-64 B over shm, five interleaved rounds, 3 of 50
 *       sizes sat at 130-150 µs per call where the rest took 0.6 µs; with 1 ms, 0 of 50 (and JCCL_SPIN=2ms
 *       0 of 15 against 3 of 15 sizes, earlier). Over shm alone the load is not asked: two spinning
 *       ranks fill 2 cores, so any third thread made a sample say "busy" for 50 ms, and 4-64 KiB
 *       calls sat at 40-60 µs in 6 of 30 (size, round) cells against 0 of 30 with the spin kept.</td></tr>
 *   <tr><td>a caller running its small call inline ({@link #inline()}: an LL allreduce issued
 *       while nothing else is queued; it holds the progress lock)</td>
 *       <td>JCCL_SPIN, {@code auto}: 1 ms; with more ranks on the host than cores none (it polls between yields)</td>
 *       <td>oversubscribed: up to 2,000 yields; then it hands the call to {@code await()} (above)</td>
 *       <td>a peer's reply takes 1-2 µs when both ranks have a core, so a spin catches it with no
 *       park, no wake-up and no handle. 1 ms also outlasts a peer's park (a 1 µs park sleeps
 *       40-100 µs here) and its caller's spin, so one rank that came late does not make the other late
 *       in turn at the next call (above). It counts as a waiting caller, so the progress thread
 *       sleeps its cede meanwhile (next row). Oversubscribed, the peer needs this core,
 *       and a rank that yields gives it to one of the ranks it waits for; 2,000 yields rather than
 *       200 hand fewer calls on (4 ranks on 2 cores, 8 B, six runs each, interleaved: median per
 *       call 9.6 against 11.0 µs, p50 of single calls 8.9 against 11.8 µs). No HostLoad read: it
 *       would allocate.</td></tr>
 *   <tr><td>the progress thread, while a caller waits or within {@link #callerGraceNs()} (100 µs)
 *       after a caller issued or stopped waiting</td><td>never</td>
 *       <td>sleeps (up to {@link #cedeNs()}, 5 ms, while a caller waits; the last caller to leave with work
 *       in flight wakes it), or naps out the grace</td>
 *       <td>waking every 50 µs preempted a spinning rank on a host with no spare core: 18.7 µs per
 *       2-rank 8 B allreduce against 12.0 µs. A lock holder that loses its core stalls everyone,
 *       and most callers wait right after issuing. The cede only bounds how late the thread finds a
 *       call nobody awaits (see {@link #inline()}, and below). Oversubscribed, each
 *       wake-up (about 12 µs on a core here) takes the core from a rank the others wait for: 4 ranks
 *       on 2 cores, 8 B, five interleaved rounds, median per call 13.5-17.3 µs (p99 45-59) against
 *       15.8-36.3 (p99 80-124) with 1 ms; 20 ms was no better than 5. Two ranks, 8 KiB over tcp: at 1 ms
 *       each thread woke 900-940 times a second and preempted a caller 555-630 times (1 s scheduler
 *       trace), at 5 ms about 200 and 150-200; median per call / p99 of single calls, three interleaved
 *       rounds: 17.7-18.4 / 91-107 µs at 1 ms, 13.5-16.8 / 64-76 at 5 ms. A call issued while nobody waits
 *       ends the cede when its caller will likely not wait at once (a second call without a wait between,
 *       or a caller whose last wait came a grace after its issue: {@code ProgressHandOff.wakesCedingThread});
 *       any other call nobody awaits is found up to 5 ms late.</td></tr>
 *   <tr><td>the progress thread while callers run their calls inline ({@link #inlineCedeNs()}): their
 *       last call ran inline, none has queued one since, and one was seen within {@link #deepAfterNs()}</td>
 *       <td>never</td>
 *       <td>sleeps 5 ms at a time, marked so that queueing an operation unparks it (as from its deep
 *       sleep); a call handed on and not awaited is queued work with nobody waiting, which ends the sleep</td>
 *       <td>nothing is queued for it, yet it woke every 1 ms cede and every caller grace (callers step out
 *       between calls), each time taking the core of a spinning rank: 2 ranks, 8 B over shm, a scheduler
 *       trace of 1 s in a steady run counted 920-1,070 wake-ups per rank and 700-925 preemptions of a
 *       calling thread by each; with 5 ms sleeps 197-199 and 145-175 (in a sweep of sizes, where
 *       settling calls are queued, 5-7x fewer wake-ups than before). The 8 B call: medians
 *       0.85-0.91 µs against 0.78-0.98 in six interleaved rounds.</td></tr>
 *   <tr><td>the progress thread, with operations in flight that nobody awaits (DDP buckets during
 *       backward; {@link #background()})</td><td>never</td>
 *       <td>parks of 20 µs doubling to 200 µs, default timer slack</td>
 *       <td>the issuer computes on the cores it would spin on; the default slack batches wake-ups.
 *       A chunk waits at most one park longer.</td></tr>
 *   <tr><td>the progress thread with nothing to do</td><td>never</td>
 *       <td>naps {@link #napNs()} (50 µs); after {@link #deepAfterNs()} (5 ms) of quiet sleeps
 *       {@link #deepSleepNs()} (1 ms) at a time, and only then does issuing unpark it</td>
 *       <td>a loop of issue-and-await never pays for waking a thread, yet an asynchronous
 *       operation after a long pause starts at once</td></tr>
 *   <tr><td>a completion-queue waiter, in process ({@link #completion})</td>
 *       <td>200 rounds, and at least JCCL_SPIN; {@code auto}: 50 µs while a core is spare</td>
 *       <td>50 yields, then parks of 1 µs to 100 µs, slack cut; producers unpark it</td>
 *       <td>as for callers</td></tr>
 *   <tr><td>a completion-queue waiter on shared-memory rings</td>
 *       <td>200 rounds; {@code auto} adds nothing</td><td>as above</td>
 *       <td>its yields already spin on an idle host and give the core away on a busy one, while
 *       polling a peer's rings harder slows the peer's copies into them (a 64 KiB send stream lost
 *       a third of its rate)</td></tr>
 *   <tr><td>a completion-queue waiter on sockets</td>
 *       <td>JCCL_SPIN only (each round is a system call); {@code auto}: 50 µs while a core is spare
 *       and no queue pair of the queue moves bulk data on its own threads</td>
 *       <td>never yields; sleeps on its sockets (1 µs to 100 µs), default slack</td>
 *       <td>the peer's data wakes the sleeper at once, while a yield can hand the core to another
 *       process for a whole time slice; on idle cores a reply is caught without a wake-up (tens of
 *       µs on an idle VM), beside bulk transfers the waiter leaves their threads the cores</td></tr>
 *   <tr><td>a bounded wait for state another thread or process publishes: a queue pair reaching
 *       RTR, a peer's file header, senders leaving a queue pair, a peer unpinning a region, a
 *       posted receive ({@link #stateWait()})</td>
 *       <td>200 rounds</td><td>50 yields, then parks of 1 µs to 100 µs, default slack</td>
 *       <td>the cap is low because a peer in another process cannot unpark the waiter; the
 *       default slack keeps a long wait cheap</td></tr>
 *   <tr><td>the store host waiting for clients to leave ({@link #storeLinger()}); the training
 *       helper's completion watcher ({@link #completionWatcher()})</td><td>never</td>
 *       <td>parks of 1 ms to 50 ms; of 50 µs to 500 µs</td>
 *       <td>nothing waits on them; the watcher only stamps times and must leave backward its CPU</td></tr>
 * </table>
 *
 * <p>Not decided here, as they are hand-offs inside one transport rather than waits: a tcp socket's
 * receiver thread stays off the socket while a consumer watches it ({@code ReceiverAgent}), the
 * UCX provider's progress agent stays off its worker while a consumer waits and otherwise naps
 * (20 µs to 1 ms, on the worker's event fd where it has network peers), and the shm watchdog ticks
 * every JCCL_HEARTBEAT.
 */
public final class WaitPolicy {
    /** JCCL_SPIN=auto: the waiter's kind and the host's load decide. */
    public static final long AUTO_SPIN = -1;
    /** What {@code auto} spins when a core is spare: about a peer's reply on idle cores. */
    static final long LONG_SPIN_NS = 50_000;
    private static final long SPINS = 200;
    /** What {@code auto} spins in a caller's await, and inline, when every rank has a core: see the table. */
    static final long CALLER_SPIN_NS = 1_000_000;
    static final long INLINE_OVERSUBSCRIBED_SPIN_NS = 0;
    private static final long CEDE_NS = 5_000_000;
    static final long INLINE_YIELDS = 2_000;
    static final long CALLER_YIELDS = 2_000;
    private static final long MIN_PARK_NS = 1_000;
    private static final long MAX_PARK_NS = 100_000;
    private static final BackoffIdleStrategy.Parker PARK = LockSupport::parkNanos;

    static final Backoff STATE_WAIT = new Backoff(SPINS, 0, 50, MIN_PARK_NS, MAX_PARK_NS, false);
    static final Backoff STORE_LINGER = new Backoff(0, 0, 0, 1_000_000, 50_000_000, false);
    static final Backoff COMPLETION_WATCHER = new Backoff(0, 0, 0, 50_000, 500_000, false);
    private static final Backoff BACKGROUND = new Backoff(0, 0, 0, 20_000, 200_000, false);

    /** How the consumer of a completion queue learns of a completion; it decides the spin. */
    public enum CqKind {
        /** Producers in this process push and unpark the waiter. */
        IN_PROCESS,
        /** A poll drains rings that peers in other processes write. */
        SHARED_RINGS,
        /** The waiter reads sockets itself and sleeps on them. */
        SOCKETS
    }

    /**
     * One role's back-off as numbers: spin {@code spins} rounds and for at least {@code spinNs},
     * yield {@code yields} times, then park from {@code minParkNs} doubling to {@code maxParkNs},
     * with the timer slack cut first when {@code tightSlack}.
     */
    public record Backoff(long spins, long spinNs, long yields, long minParkNs, long maxParkNs, boolean tightSlack) {
        /** A fresh strategy for one thread (strategies are not thread-safe), sleeping through {@code parker}. */
        public BackoffIdleStrategy strategy(BackoffIdleStrategy.Parker parker) {
            return new BackoffIdleStrategy(spins, spinNs, yields, minParkNs, maxParkNs,
                    tightSlack ? TimerSlack.tight(parker) : parker);
        }

        /** A fresh strategy that parks the thread. */
        public BackoffIdleStrategy strategy() {
            return strategy(PARK);
        }
    }

    private final long spinKnobNs;
    private final int ranksOnHost;
    private final int cores;

    private WaitPolicy(long spinKnobNs, int ranksOnHost, int cores) {
        if (spinKnobNs < 0 && spinKnobNs != AUTO_SPIN || ranksOnHost < 1 || cores < 1) {
            throw new IllegalArgumentException("bad wait policy: spin " + spinKnobNs + " ns, " + ranksOnHost
                    + " ranks on " + cores + " cores");
        }
        this.spinKnobNs = spinKnobNs;
        this.ranksOnHost = ranksOnHost;
        this.cores = cores;
    }

    /** For JCCL_SPIN ({@link #AUTO_SPIN} or ns) and {@code ranksOnHost} ranks sharing {@code cores} cores. */
    public static WaitPolicy of(long spinKnobNs, int ranksOnHost, int cores) {
        return new WaitPolicy(spinKnobNs, ranksOnHost, cores);
    }

    /** The knobs' defaults, for one rank on this host. */
    public static WaitPolicy defaults() {
        return of(AUTO_SPIN, 1, Runtime.getRuntime().availableProcessors());
    }

    /** Whether this host's ranks outnumber its cores, so that a waiter must get off its core soon. */
    public boolean oversubscribed() {
        return ranksOnHost > cores;
    }

    /**
     * A caller blocked in {@code await()}, driving progress; {@code threadsBeside}: a transport moves
     * data on threads of its own, so the host's load decides. The spin budget is decided now.
     */
    public Backoff caller(boolean threadsBeside) {
        boolean over = oversubscribed();
        long spinNs = spinKnobNs != AUTO_SPIN ? spinKnobNs : over ? 0
                : threadsBeside ? autoSpinNs(CALLER_SPIN_NS) : CALLER_SPIN_NS;
        return new Backoff(over ? 0 : SPINS, spinNs, CALLER_YIELDS, MIN_PARK_NS, MAX_PARK_NS, true);
    }

    /** How a caller running its call inline waits for its peers before it hands the call to {@code await()}. */
    public record Inline(long spinNs, long yields) {}

    /** See the class comment: spin while every rank has a core, else spin briefly and yield. */
    public Inline inline() {
        if (oversubscribed()) return new Inline(INLINE_OVERSUBSCRIBED_SPIN_NS, INLINE_YIELDS);
        return new Inline(spinKnobNs != AUTO_SPIN ? spinKnobNs : CALLER_SPIN_NS, 0);
    }

    /** The progress thread while operations are in flight that nobody waits for. */
    public Backoff background() {
        return BACKGROUND;
    }

    /** How long after a caller issued or stopped waiting the progress thread leaves progress to it. */
    public long callerGraceNs() {
        return 100_000;
    }

    /** How long the progress thread sleeps at a time while a caller drives progress. */
    public long cedeNs() {
        return CEDE_NS;
    }

    /**
     * How long the progress thread sleeps at a time while callers run their calls inline: an operation
     * queued wakes it, so this bounds only how late it finds a call handed on and not awaited.
     */
    public long inlineCedeNs() {
        return CEDE_NS; // the same length as the cede, with reasons of its own (see the table)
    }

    /** The progress thread's nap while it has nothing to do. */
    public long napNs() {
        return 50_000;
    }

    /** After how long with nothing to do the progress thread sleeps deeply (woken by an issue). */
    public long deepAfterNs() {
        return 5_000_000;
    }

    /** The progress thread's deep sleep, at a time. */
    public long deepSleepNs() {
        return 1_000_000;
    }

    /**
     * A completion-queue waiter of {@code kind}; {@code bulkBeside}: the queue's queue pairs move
     * bulk data on threads of their own. The spin budget is decided now.
     */
    public Backoff completion(CqKind kind, boolean bulkBeside) {
        long spinNs = spinKnobNs != AUTO_SPIN ? spinKnobNs : switch (kind) {
            case IN_PROCESS -> autoSpinNs(LONG_SPIN_NS);
            case SHARED_RINGS -> 0;
            case SOCKETS -> bulkBeside ? 0 : autoSpinNs(LONG_SPIN_NS);
        };
        return kind == CqKind.SOCKETS ? new Backoff(0, spinNs, 0, MIN_PARK_NS, MAX_PARK_NS, false)
                : new Backoff(SPINS, spinNs, 50, MIN_PARK_NS, MAX_PARK_NS, true);
    }

    /** A fresh strategy for a bounded wait on published state (see the class comment). */
    public static BackoffIdleStrategy stateWait() {
        return STATE_WAIT.strategy();
    }

    /** A fresh strategy for the store host waiting for its clients to leave. */
    public static BackoffIdleStrategy storeLinger() {
        return STORE_LINGER.strategy();
    }

    /** A fresh strategy for a thread that only watches operations complete. */
    public static BackoffIdleStrategy completionWatcher() {
        return COMPLETION_WATCHER.strategy();
    }

    /** {@code auto}'s budget now: {@code budgetNs} while the host has a core to spare, else none. */
    private static long autoSpinNs(long budgetNs) {
        return HostLoad.coresToSpare() ? budgetNs : 0;
    }

    @Override
    public String toString() {
        return "WaitPolicy{spin " + (spinKnobNs == AUTO_SPIN ? "auto" : spinKnobNs + " ns") + ", " + ranksOnHost
                + " ranks on " + cores + " cores" + (oversubscribed() ? ", oversubscribed" : "") + "}";
    }
}
