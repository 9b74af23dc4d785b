package mpjrun.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import mpjrun.JobSpec;
import org.junit.jupiter.api.Test;

/** How MPJ Express's starter command line becomes a shm job under the agent. */
class ShmStarterTest
{
    @Test
    void shouldTakeOnlyCommandLinesThatAskForShm()
    {
        assertTrue(ShmStarter.asksForShm(new String[] {"-np", "2", "-dev", "shm", "App"}));
        assertFalse(ShmStarter.asksForShm(new String[] {"-np", "2", "-dev", "niodev", "App", "-dev", "shm"}));
        assertFalse(ShmStarter.asksForShm(new String[] {"-np", "2", "App", "-dev", "shm"}));
        assertFalse(ShmStarter.asksForShm(new String[] {"-np", "-dev", "shm"}));
        assertEquals(ShmStarter.NOT_SHM, ShmStarter.run(new String[] {"-np", "2", "App"}));
    }

    @Test
    void shouldReadMpjExpressStarterOptionsAsAJob() throws Exception
    {
        final JobSpec spec = ShmStarter.parse(new String[] {"-np", "3", "-dev", "shm", "-wdir", "/tmp", "-Xmx64m",
            "-cp", "a.jar:b", "-psl", "1024", "my.App", "-np", "x"});

        assertEquals(new JobSpec(3, List.of("a.jar", "b"), List.of("-Xmx64m"), "my.App", List.of("-np", "x"), false),
            spec);
    }

    @Test
    void shouldTakeAsManyRanksAsCoresForAWordAsMpjExpressDoes() throws Exception
    {
        assertEquals(Runtime.getRuntime().availableProcessors(),
            ShmStarter.parse(new String[] {"-np", "all", "-dev", "shm", "App"}).processes());
    }

    @Test
    void shouldRejectABadShmCommandLine()
    {
        assertEquals("-np 0: give the number of ranks, 1 or more", assertThrows(IllegalArgumentException.class,
            () -> ShmStarter.parse(new String[] {"-np", "0", "-dev", "shm", "App"})).getMessage());
        assertEquals("the main class is missing: name the class whose main each rank runs",
            assertThrows(IllegalArgumentException.class,
                () -> ShmStarter.parse(new String[] {"-np", "2", "-dev", "shm"})).getMessage());
        assertEquals(2, ShmStarter.run(new String[] {"-np", "-1", "-dev", "shm", "App"}));
    }
}
