package dev.jccl.bootstrap;

import dev.jccl.bootstrap.LaunchEnvironment.Launcher;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

@Timeout(10)
@Tag("unit")
class LaunchEnvironmentTest {
    private static Map<String, String> env(String... kv) {
        Map<String, String> m = new HashMap<>();
        for (int i = 0; i < kv.length; i += 2) m.put(kv[i], kv[i + 1]);
        return m;
    }

    private static void assertRefused(Map<String, String> env, String... fragments) {
        LaunchEnvironmentException e = assertThrows(LaunchEnvironmentException.class, () -> LaunchEnvironment.detect(env));
        for (String f : fragments) assertTrue(e.getMessage().contains(f), "'" + f + "' missing from: " + e.getMessage());
    }

    @Test
    void torchrunVariables() {
        LaunchEnvironment e = LaunchEnvironment.detect(env("RANK", "5", "WORLD_SIZE", "8", "LOCAL_RANK", "1",
                "LOCAL_WORLD_SIZE", "4", "GROUP_RANK", "1", "MASTER_ADDR", "10.1.2.3", "MASTER_PORT", "29500"));
        assertEquals(new LaunchEnvironment(5, 8, 1, 4, 1, "10.1.2.3", 29500, Launcher.TORCHRUN), e);
        assertEquals("rank 5/8 (local 1/4, node 1) via TORCHRUN, store 10.1.2.3:29500", e.describe());
    }

    @Test
    void torchrunOnOneNodeNeedsOnlyRankWorldAndPort() {
        LaunchEnvironment e = LaunchEnvironment.detect(env("RANK", "2", "WORLD_SIZE", "3", "MASTER_PORT", "4000"));
        assertEquals(new LaunchEnvironment(2, 3, 2, 3, 0, "127.0.0.1", 4000, Launcher.TORCHRUN), e);
    }

    @Test
    void nodeRankFallsBackToNodeRankThenBlockPlacement() {
        assertEquals(3, LaunchEnvironment.detect(env("RANK", "6", "WORLD_SIZE", "8", "LOCAL_RANK", "0",
                "LOCAL_WORLD_SIZE", "2", "NODE_RANK", "3", "MASTER_ADDR", "h", "MASTER_PORT", "1")).nodeRank());
        assertEquals(2, LaunchEnvironment.detect(env("RANK", "5", "WORLD_SIZE", "8", "LOCAL_RANK", "1",
                "LOCAL_WORLD_SIZE", "2", "MASTER_ADDR", "h", "MASTER_PORT", "1")).nodeRank());
    }

    @Test
    void nothingSetIsASingleProcess() {
        assertEquals(LaunchEnvironment.singleProcess(), LaunchEnvironment.detect(Map.of()));
        assertEquals(Launcher.SINGLE_PROCESS, LaunchEnvironment.detect(env("MASTER_PORT", "0")).launcher());
    }

    @Test
    void slurmWithTaskListAndNodeList() {
        LaunchEnvironment e = LaunchEnvironment.detect(env("SLURM_PROCID", "6", "SLURM_NTASKS", "11", "SLURM_LOCALID", "2",
                "SLURM_NODEID", "1", "SLURM_TASKS_PER_NODE", "4(x2),3", "SLURM_JOB_NODELIST", "gpu[07-09,12],cpu1",
                "SLURM_JOB_ID", "123456"));
        assertEquals(new LaunchEnvironment(6, 11, 2, 4, 1, "gpu07", 10_000 + 123456 % 20_000, Launcher.SLURM), e);
        assertEquals(3, LaunchEnvironment.detect(env("SLURM_PROCID", "10", "SLURM_NTASKS", "11", "SLURM_LOCALID", "2",
                "SLURM_NODEID", "2", "SLURM_TASKS_PER_NODE", "4(x2),3", "MASTER_ADDR", "h", "MASTER_PORT", "5")).localWorldSize());
    }

    @Test
    void slurmExplicitMasterAndTasksPerNodeWin() {
        LaunchEnvironment e = LaunchEnvironment.detect(env("SLURM_PROCID", "1", "SLURM_NTASKS", "4", "SLURM_LOCALID", "1",
                "SLURM_NODEID", "0", "SLURM_NTASKS_PER_NODE", "2", "SLURM_TASKS_PER_NODE", "9", "SLURM_JOB_NODELIST", "n[1-2]",
                "SLURM_JOB_ID", "7", "MASTER_ADDR", "head", "MASTER_PORT", "4242"));
        assertEquals(new LaunchEnvironment(1, 4, 1, 2, 0, "head", 4242, Launcher.SLURM), e);
    }

    @Test
    void slurmHostListForms() {
        assertEquals("node1", SlurmLists.firstHost("V", "node1"));
        assertEquals("a", SlurmLists.firstHost("V", "a,b,c"));
        assertEquals("node001", SlurmLists.firstHost("V", "node[001-004]"));
        assertEquals("n3-ib", SlurmLists.firstHost("V", "n[3,5]-ib,m1"));
        assertEquals("rack1-n4", SlurmLists.firstHost("V", "rack[1-2]-n[4-5]"));
        for (String bad : new String[]{"n[1-2", "n]1[", "n[x]", "", "[1-2]]"}) {
            LaunchEnvironmentException e = assertThrows(LaunchEnvironmentException.class, () -> SlurmLists.firstHost("SLURM_JOB_NODELIST", bad));
            assertTrue(e.getMessage().contains("SLURM_JOB_NODELIST"), e.getMessage());
        }
    }

    @Test
    void slurmTaskCountForms() {
        assertEquals(4, SlurmLists.tasksOnNode("T", "4(x2),3", 0, "N"));
        assertEquals(4, SlurmLists.tasksOnNode("T", "4(x2),3", 1, "N"));
        assertEquals(3, SlurmLists.tasksOnNode("T", "4(x2),3", 2, "N"));
        assertEquals(8, SlurmLists.tasksOnNode("T", "8", 0, "N"));
        LaunchEnvironmentException e = assertThrows(LaunchEnvironmentException.class,
                () -> SlurmLists.tasksOnNode("SLURM_TASKS_PER_NODE", "4(x2),3", 3, "SLURM_NODEID"));
        assertTrue(e.getMessage().contains("lists 3 node(s)") && e.getMessage().contains("SLURM_NODEID=3"), e.getMessage());
        assertThrows(LaunchEnvironmentException.class, () -> SlurmLists.tasksOnNode("T", "4(2)", 0, "N"));
        assertThrows(LaunchEnvironmentException.class, () -> SlurmLists.tasksOnNode("T", "0", 0, "N"));
    }

    @Test
    void openMpiVariables() {
        LaunchEnvironment e = LaunchEnvironment.detect(env("OMPI_COMM_WORLD_RANK", "3", "OMPI_COMM_WORLD_SIZE", "4",
                "OMPI_COMM_WORLD_LOCAL_RANK", "1", "OMPI_COMM_WORLD_LOCAL_SIZE", "2", "OMPI_COMM_WORLD_NODE_RANK", "1",
                "MASTER_ADDR", "n0", "MASTER_PORT", "7000"));
        assertEquals(new LaunchEnvironment(3, 4, 1, 2, 1, "n0", 7000, Launcher.OPEN_MPI), e);
    }

    @Test
    void openMpiInsideASlurmAllocationBeatsTheInheritedSlurmVariables() {
        LaunchEnvironment e = LaunchEnvironment.detect(env("OMPI_COMM_WORLD_RANK", "2", "OMPI_COMM_WORLD_SIZE", "4",
                "OMPI_COMM_WORLD_LOCAL_RANK", "0", "OMPI_COMM_WORLD_LOCAL_SIZE", "2",
                "SLURM_PROCID", "0", "SLURM_NTASKS", "1", "SLURM_LOCALID", "0", "SLURM_NODEID", "0",
                "SLURM_JOB_NODELIST", "n[1-2]", "SLURM_JOB_ID", "99", "MASTER_PORT", "7000"));
        assertEquals(Launcher.OPEN_MPI, e.launcher());
        assertEquals(2, e.rank());
        assertEquals(4, e.worldSize());
        assertEquals(0, e.localRank());
        assertEquals("n1", e.masterAddr());
    }

    @Test
    void explicitTorchrunValuesWinOverLauncherValues() {
        LaunchEnvironment e = LaunchEnvironment.detect(env("RANK", "1", "WORLD_SIZE", "2", "LOCAL_RANK", "1",
                "LOCAL_WORLD_SIZE", "2", "SLURM_PROCID", "0", "SLURM_NTASKS", "1", "SLURM_LOCALID", "0",
                "MASTER_ADDR", "127.0.0.1", "MASTER_PORT", "3000"));
        assertEquals(new LaunchEnvironment(1, 2, 1, 2, 0, "127.0.0.1", 3000, Launcher.TORCHRUN), e);
    }

    @Test
    void errorsNameTheVariable() {
        assertRefused(env("RANK", "4", "WORLD_SIZE", "4", "MASTER_PORT", "1"), "RANK=4", "WORLD_SIZE=4");
        assertRefused(env("RANK", "-1", "WORLD_SIZE", "4", "MASTER_PORT", "1"), "RANK=-1");
        assertRefused(env("RANK", "one", "WORLD_SIZE", "4"), "RANK='one' is not an integer");
        assertRefused(env("RANK", "0"), "WORLD_SIZE");
        assertRefused(env("WORLD_SIZE", "2"), "RANK");
        assertRefused(env("RANK", "0", "WORLD_SIZE", "0"), "WORLD_SIZE=0");
        assertRefused(env("RANK", "0", "WORLD_SIZE", "2"), "MASTER_PORT");
        assertRefused(env("RANK", "0", "WORLD_SIZE", "2", "MASTER_PORT", "70000"), "MASTER_PORT=70000");
        assertRefused(env("RANK", "0", "WORLD_SIZE", "2", "MASTER_PORT", "0"), "MASTER_PORT=0");
        assertRefused(env("RANK", "0", "WORLD_SIZE", "4", "LOCAL_RANK", "0", "MASTER_PORT", "1"), "LOCAL_WORLD_SIZE");
        assertRefused(env("RANK", "0", "WORLD_SIZE", "4", "LOCAL_RANK", "2", "LOCAL_WORLD_SIZE", "2", "MASTER_PORT", "1"),
                "LOCAL_RANK=2", "LOCAL_WORLD_SIZE=2");
        assertRefused(env("RANK", "0", "WORLD_SIZE", "4", "LOCAL_RANK", "0", "LOCAL_WORLD_SIZE", "8", "MASTER_PORT", "1"),
                "LOCAL_WORLD_SIZE=8");
        assertRefused(env("RANK", "0", "WORLD_SIZE", "4", "LOCAL_RANK", "0", "LOCAL_WORLD_SIZE", "2", "MASTER_PORT", "1"),
                "MASTER_ADDR is not set");
        assertRefused(env("RANK", "0", "WORLD_SIZE", "2", "MASTER_ADDR", " ", "MASTER_PORT", "1"), "MASTER_ADDR is empty");
        assertRefused(env("RANK", "0", "WORLD_SIZE", "2", "GROUP_RANK", "-2", "MASTER_PORT", "1"), "GROUP_RANK=-2");
        assertRefused(env("SLURM_PROCID", "0"), "SLURM_NPROCS");
        assertRefused(env("SLURM_PROCID", "x", "SLURM_NTASKS", "2"), "SLURM_PROCID='x'");
        assertRefused(env("OMPI_COMM_WORLD_RANK", "0"), "OMPI_COMM_WORLD_SIZE");
        assertRefused(env("SLURM_PROCID", "0", "SLURM_NTASKS", "2", "SLURM_LOCALID", "0", "SLURM_NODEID", "1",
                "SLURM_TASKS_PER_NODE", "2", "MASTER_PORT", "1"), "SLURM_TASKS_PER_NODE", "SLURM_NODEID=1");
    }

    @Test
    void explicitConstructionIsValidatedToo() {
        assertThrows(LaunchEnvironmentException.class, () -> new LaunchEnvironment(2, 2, 0, 1, 0, "h", 1, Launcher.TORCHRUN));
        assertThrows(LaunchEnvironmentException.class, () -> new LaunchEnvironment(0, 2, 0, 1, 0, "h", 0, Launcher.TORCHRUN));
        assertThrows(LaunchEnvironmentException.class, () -> new LaunchEnvironment(0, 2, 0, 3, 0, "h", 1, Launcher.TORCHRUN));
    }
}
