package bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The stamp names the CPU on x86 and on ARM, and its end comes from finishing it. */
class RunStampTest
{
    @Test
    void shouldNameAnX86CpuByItsModelName()
    {
        assertEquals("Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz", RunStamp.cpuModel("""
            processor\t: 0
            vendor_id\t: GenuineIntel
            model name\t: Intel(R) Xeon(R)   Platinum 8375C CPU @ 2.90GHz
            processor\t: 1
            model name\t: Intel(R) Xeon(R) Platinum 8375C CPU @ 2.90GHz
            """));
    }

    @Test
    void shouldNameAKunpengByItsImplementerAndPart()
    {
        assertEquals("HiSilicon Kunpeng 920 (CPU implementer 0x48, part 0xd01)", RunStamp.cpuModel("""
            processor\t: 0
            BogoMIPS\t: 200.00
            CPU implementer\t: 0x48
            CPU architecture: 8
            CPU part\t: 0xd01
            """));
        assertEquals("(CPU implementer 0x41, part 0xd0c)",
            RunStamp.cpuModel("CPU implementer\t: 0x41\nCPU part\t: 0xd0c\n"));
    }

    @Test
    void shouldSayWhenTheModelIsUnknown()
    {
        assertEquals("unknown CPU model", RunStamp.cpuModel(""));
    }

    @Test
    void shouldStampThisMachineAndAddTheEndWhenFinished()
    {
        final RunStamp started = RunStamp.start("bin/bench engine");

        assertFalse(started.isFinished());
        assertTrue(started.machine().startsWith(Runtime.getRuntime().availableProcessors() + " cores, "),
            started.machine());
        assertTrue(started.jdk().contains(System.getProperty("java.runtime.version")), started.jdk());
        final RunStamp finished = started.finish();
        assertTrue(finished.isFinished());
        assertNotNull(finished.runTime());
        assertEquals(started.loadAtStart(), finished.loadAtStart());
        assertEquals("bin/bench engine", finished.command());
    }
}
