package dev.jccl.testkit.netns;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Several {@link DelayProxy DelayProxies} in one JVM, one per mapping, all with the same delay: what
 * puts every rank's tcp data connections of a cluster job through the router
 * ({@link NetnsCluster#dataProxyCommand}). One JVM instead of one per rank spares the cores.
 *
 * <p>Args: DELAY_MS JITTER_MS LIFETIME_S LISTEN_HOST:PORT=TARGET_HOST:PORT... It prints
 * {@code PROXY listening HOST:PORT} per mapping, then {@code PROXIES ready}; each {@code bytes} line
 * on stdin is answered with {@code PROXY bytes N} (bytes forwarded so far, all mappings, both ways).
 * It exits on end of input or after LIFETIME_S, whichever comes first.
 */
public final class DelayProxies {
    private DelayProxies() {}

    public static void main(String[] args) throws Exception {
        long delayNs = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[0]));
        long jitterNs = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[1]));
        long lifetimeMs = TimeUnit.SECONDS.toMillis(Long.parseLong(args[2]));
        Thread.ofPlatform().daemon().name("jcclt-proxies-lifetime").start(() -> {
            try {
                Thread.sleep(lifetimeMs);
            } catch (InterruptedException e) {
                return;
            }
            System.exit(0);
        });
        List<DelayProxy> proxies = new ArrayList<>();
        try {
            for (int i = 3; i < args.length; i++) {
                String[] ends = args[i].split("=");
                DelayProxy p = new DelayProxy(socket(ends[0]), socket(ends[1]), delayNs, jitterNs);
                proxies.add(p);
                System.out.println("PROXY listening " + ends[0]);
            }
            System.out.println("PROXIES ready");
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                if (!line.trim().equals("bytes")) continue;
                System.out.println("PROXY bytes " + proxies.stream().mapToLong(DelayProxy::forwardedBytes).sum());
                System.out.flush();
            }
        } finally {
            for (DelayProxy p : proxies) p.close();
        }
        System.exit(0);
    }

    private static InetSocketAddress socket(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }
}
