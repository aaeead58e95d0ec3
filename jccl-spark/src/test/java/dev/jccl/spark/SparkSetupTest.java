package dev.jccl.spark;

import org.apache.spark.SparkConf;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What needs no Spark session: executor settings, the join message, the set-up bound. */
@Tag("unit")
class SparkSetupTest {
    @Test
    void configureAddsJcclsExecutorFlagsOnceAndKeepsTheUsersOwn() {
        SparkConf conf = new SparkConf(false).set("spark.executor.extraJavaOptions", "-Xss4m --enable-native-access=ALL-UNNAMED");
        JcclSpark.configure(JcclSpark.configure(conf));
        assertEquals("-Xss4m --enable-native-access=ALL-UNNAMED --add-modules=jdk.incubator.vector",
                conf.get("spark.executor.extraJavaOptions"));
    }

    @Test
    void configureGivesExecutorsASparkUserUnlessOneIsSet() {
        SparkConf plain = JcclSpark.configure(new SparkConf(false));
        assertEquals(ExecutorSetup.sparkUser(), plain.get("spark.executorEnv.SPARK_USER"));
        assertTrue(!ExecutorSetup.sparkUser().isBlank(), "a user name is found");
        SparkConf given = JcclSpark.configure(new SparkConf(false).setExecutorEnv("SPARK_USER", "etl"));
        assertEquals("etl", given.get("spark.executorEnv.SPARK_USER"));
    }

    @Test
    void setUpIsBoundedByTheShorterOfJcclTimeoutAndSparksBarrierTimeout() {
        SparkConf shortBarrier = new SparkConf(false).set("spark.barrier.sync.timeout", "5s");
        assertEquals(TimeUnit.SECONDS.toNanos(5), BarrierRendezvous.setupTimeoutNs(Map.of("JCCL_TIMEOUT", "30s"), shortBarrier));
        SparkConf defaults = new SparkConf(false);
        assertEquals(TimeUnit.SECONDS.toNanos(2), BarrierRendezvous.setupTimeoutNs(Map.of("JCCL_TIMEOUT", "2s"), defaults));
    }

    @Test
    void joinMessagesRoundTripAndAMalformedOneIsRefusedNamingIt() {
        var lead = new BarrierRendezvous.JoinMessage("10.0.0.7", "127.0.0.1", 40123, "c2VjcmV0");
        assertEquals(lead, BarrierRendezvous.JoinMessage.decode(lead.encode()));
        var other = new BarrierRendezvous.JoinMessage("10.0.0.8", "", 0, "");
        assertEquals(other, BarrierRendezvous.JoinMessage.decode(other.encode()));
        var e = assertThrows(IllegalStateException.class, () -> BarrierRendezvous.JoinMessage.decode("10.0.0.9"));
        assertTrue(e.getMessage().contains("'10.0.0.9'"), e.getMessage());
    }
}
