package dev.jccl.provider.ucx;

import dev.jccl.verbs.PathKind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading UCX's own listings: context resources (devinfo) and endpoint lanes (the INFO log). */
@Tag("unit")
class UcxTransportsTest {
    private static final String CONTEXT = """
            #      resource 0  :  md 0  dev 0  flags -- self/memory0
            #      resource 1  :  md 1  dev 1  flags -- tcp/lo
            #      resource 2  :  md 2  dev 2  flags -- sysv/memory
            #      resource 3  :  md 3  dev 3  flags -- rc_mlx5/mlx5_0:1
            """;

    @Test
    void contextResourcesAreTransportAndDevicePairs() {
        assertEquals(List.of(new UcxTransports.Resource("self", "memory0"), new UcxTransports.Resource("tcp", "lo"),
                new UcxTransports.Resource("sysv", "memory"), new UcxTransports.Resource("rc_mlx5", "mlx5_0:1")),
                UcxTransports.ofContext(CONTEXT));
    }

    @Test
    void endpointLanesNameTransportsThenDevices() {
        String shm = """
                #                 lane[0]:  2:sysv/memory.0 md[2]           -> md[2]/sysv/sysdev[255] am am_bw#0
                #                 lane[1]:  3:posix/memory.0 md[3]          -> md[3]/posix/sysdev[255]
                #                 lane[2]:  4:cma/memory.0 md[4]            -> md[4]/cma/sysdev[255] rma_bw#0
                """;
        assertEquals("sysv/posix/cma memory", UcxTransports.ofEndpoint(shm));
        String ib = "#   lane[0]:  5:rc_mlx5/mlx5_0:1.0 md[5] -> md[5]/ib/sysdev[255] rma_bw#0 am am_bw#0\n";
        assertEquals("rc_mlx5 mlx5_0:1", UcxTransports.ofEndpoint(ib));
        assertEquals("(lanes unknown)", UcxTransports.ofEndpoint("# UCP endpoint\n"));
    }

    @Test
    void verbsTransportsCountAsRdma() {
        assertTrue(UcxTransports.isRdma("rc_mlx5"));
        assertTrue(UcxTransports.isRdma("dc_mlx5"));
        assertTrue(UcxTransports.isRdma("ud_verbs"));
        assertFalse(UcxTransports.isRdma("tcp"));
        assertFalse(UcxTransports.isRdma("posix"));
    }

    @Test
    void theLocalityListsRdmaTransportsAndOnlyBothEndsWithRdmaMakeUcxTheRdmaPath() {
        String withIb = UcxTransports.locality(UcxTransports.ofContext(CONTEXT));
        assertEquals("rdma rc_mlx5", withIb);
        String loopbackOnly = UcxTransports.locality(List.of(new UcxTransports.Resource("tcp", "lo"),
                new UcxTransports.Resource("posix", "memory")));
        assertEquals("", loopbackOnly);
        UcxProvider ucx = new UcxProvider();
        assertEquals(PathKind.RDMA, ucx.pathKind(withIb, "rdma dc_mlx5,rc_mlx5"));
        assertEquals(PathKind.OTHER, ucx.pathKind(withIb, loopbackOnly), "one end on tcp: jccl's own tcp is the better socket");
        assertEquals(PathKind.OTHER, ucx.pathKind(loopbackOnly, loopbackOnly));
    }
}
