package bench.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** The benchmarks' one option parser: what it reads, and each mistake's message with the usage line. */
class CommandLineTest
{
    private static final String USAGE = "usage: Bench [--quick] [--reps N] [--mpj-home DIR]";

    private final List<String> seen = new ArrayList<>();

    private CommandLine commandLine()
    {
        return new CommandLine(USAGE)
            .flag("--quick", () -> seen.add("quick"))
            .option("--reps", count -> seen.add("reps " + CommandLine.positive("--reps", count)))
            .option("--mpj-home", "a directory", dir -> seen.add("home " + dir));
    }

    @Test
    void shouldRunEachActionInTheOrderOfTheArgumentsAndLeaveTheReportsOptionsToTheReport()
    {
        final ReportOptions report = commandLine().parse(new String[] {"--reps", "3", "--report", "out", "--quick",
            "--mpj-home", "/tmp/mpj"}, CommandLineTest.class);

        assertEquals(List.of("reps 3", "quick", "home /tmp/mpj"), seen);
        assertEquals(Path.of("out"), report.directory());
    }

    @Test
    void shouldNameAnUnknownOptionWithTheUsage()
    {
        assertEquals("unknown argument --fast; " + USAGE, assertThrows(UsageException.class,
            () -> commandLine().parse(new String[] {"--quick", "--fast"}, CommandLineTest.class)).getMessage());
    }

    @Test
    void shouldSayWhatAMissingValueIs()
    {
        assertEquals("--reps needs a value; " + USAGE, assertThrows(UsageException.class,
            () -> commandLine().parse(new String[] {"--reps"}, CommandLineTest.class)).getMessage());
        assertEquals("--mpj-home needs a directory; " + USAGE, assertThrows(UsageException.class,
            () -> commandLine().parse(new String[] {"--mpj-home"}, CommandLineTest.class)).getMessage());
        assertEquals("--report needs a directory; " + USAGE, assertThrows(UsageException.class,
            () -> commandLine().parse(new String[] {"--report"}, CommandLineTest.class)).getMessage());
    }

    @Test
    void shouldRefuseABadNumberWithTheValueItGot()
    {
        for (final String bad : List.of("0", "-2", "three", "1.5"))
        {
            assertEquals("--reps " + bad + ": each value must be a positive integer; " + USAGE,
                assertThrows(UsageException.class,
                    () -> commandLine().parse(new String[] {"--reps", bad}, CommandLineTest.class)).getMessage());
        }
        assertEquals(List.of(2, 4), CommandLine.positives("--np", "2, 4"));
        assertEquals("--np 0: each value must be a positive integer", assertThrows(IllegalArgumentException.class,
            () -> CommandLine.positives("--np", "2,0")).getMessage());
    }

    @Test
    void shouldTakeOneOperandOnlyWhereTheCommandLineHasOne()
    {
        final List<String> operands = new ArrayList<>();
        final CommandLine withOperand = commandLine().operand(operands::add);

        withOperand.parse(new String[] {"--quick", "dir"}, CommandLineTest.class);

        assertEquals(List.of("dir"), operands);
        assertEquals("unknown argument other; " + USAGE, assertThrows(UsageException.class,
            () -> withOperand.parse(new String[] {"dir", "other"}, CommandLineTest.class)).getMessage());
        assertEquals("unknown argument dir; " + USAGE, assertThrows(UsageException.class,
            () -> commandLine().parse(new String[] {"dir"}, CommandLineTest.class)).getMessage());
    }

    @Test
    void shouldAnswerHelpWithTheUsageLineWhereverItStands()
    {
        for (final String help : List.of("-h", "--help"))
        {
            assertEquals(USAGE, assertThrows(CommandLine.HelpRequest.class,
                () -> commandLine().parse(new String[] {"--quick", help, "--fast"}, CommandLineTest.class))
                .getMessage());
        }
    }
}
