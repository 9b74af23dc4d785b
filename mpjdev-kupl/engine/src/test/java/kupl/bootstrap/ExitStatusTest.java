package kupl.bootstrap;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ExitStatusTest
{
    @Test
    void shouldDescribeSignalsAndStatuses()
    {
        assertEquals("was killed by signal 9 (SIGKILL), exit status 137", ExitStatus.describe(137));
        assertEquals("was killed by signal 15 (SIGTERM), exit status 143", ExitStatus.describe(143));
        assertEquals("was killed by signal 64, exit status 192", ExitStatus.describe(192));
        assertEquals("exited with status 3", ExitStatus.describe(3));
        assertEquals("exited with status 128", ExitStatus.describe(128));
        assertEquals("exited with status 193", ExitStatus.describe(193));
    }
}
