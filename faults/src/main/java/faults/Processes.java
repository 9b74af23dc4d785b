package faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * What the fault injector needs from Linux processes beyond {@link ProcessHandle}: whether a process
 * still runs (a zombie does not: while its parent is stopped, a dead rank stays a zombie, and
 * {@link ProcessHandle#isAlive()} counts it alive), SIGSTOP and SIGCONT (no JDK API sends them), and
 * the processes whose command line carries a trial's marker.
 */
final class Processes
{
    private Processes()
    {
    }

    /** Whether {@code process} exists and is not a zombie. */
    static boolean isRunning(final ProcessHandle process)
    {
        if (!process.isAlive())
        {
            return false;
        }
        try
        {
            // /proc/PID/stat: "pid (comm) S ..."; comm may hold spaces and parentheses, the state follows the last ')'.
            final String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
            final char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        }
        catch (final NoSuchFileException e)
        {
            return false;
        }
        catch (final IOException | IndexOutOfBoundsException e)
        {
            // Unreadable but not gone: count it as running, the cautious answer for a hang and orphan check.
            return true;
        }
    }

    /** Those of {@code processes} still running. */
    static List<ProcessHandle> running(final Collection<ProcessHandle> processes)
    {
        return processes.stream().filter(Processes::isRunning).toList();
    }

    /** Running processes whose command line contains {@code marker} (a {@code -D} option given to a trial's JVMs). */
    static List<ProcessHandle> withMarker(final String marker)
    {
        return ProcessHandle.allProcesses().filter(process ->
        {
            final Optional<String> commandLine = process.info().commandLine();
            return commandLine.isPresent() && commandLine.get().contains(marker);
        }).filter(Processes::isRunning).toList();
    }

    /** Sends SIGSTOP to every one of {@code processes}: they keep their state but run no more. */
    static void stop(final Collection<ProcessHandle> processes) throws IOException, InterruptedException
    {
        signal("-STOP", processes);
    }

    /** Sends SIGCONT to every one of {@code processes}. */
    static void resume(final Collection<ProcessHandle> processes) throws IOException, InterruptedException
    {
        signal("-CONT", processes);
    }

    /** Kills {@code process}'s descendants, then itself, with SIGKILL. */
    static void killTree(final ProcessHandle process)
    {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    /**
     * The stacks of the threads in a JVM that run {@code program} or are its {@code main}, from
     * {@code jcmd PID Thread.print}; a line saying why if that fails.
     */
    static String programThreadStacks(final ProcessHandle process, final Class<?> program)
    {
        final Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try
        {
            final Process dump = new ProcessBuilder(jcmd.toString(), Long.toString(process.pid()), "Thread.print")
                .redirectErrorStream(true).start();
            final String output = new String(dump.getInputStream().readAllBytes());
            dump.waitFor();
            final StringBuilder stacks = new StringBuilder();
            // A thread's block starts with its quoted name and ends at a blank line.
            for (final String block : output.split("\\n\\s*\\n"))
            {
                if (block.startsWith("\"main\"") || block.contains("at " + program.getName() + "."))
                {
                    stacks.append(block.strip()).append('\n');
                }
            }
            return stacks.isEmpty() ? "(no such thread; jcmd said: " + output.lines().limit(3).toList() + ")\n" :
                stacks.toString();
        }
        catch (final IOException e)
        {
            return "(jcmd failed: " + e.getMessage() + ")\n";
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            return "(interrupted)\n";
        }
    }

    private static void signal(final String signal, final Collection<ProcessHandle> processes)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("kill", signal));
        processes.stream().filter(ProcessHandle::isAlive).forEach(process -> command.add(Long.toString(process.pid())));
        if (command.size() == 2)
        {
            return;
        }
        final Process kill = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(kill.getInputStream().readAllBytes());
        // A process that ended meanwhile makes kill(1) fail for it alone; that is not an error here.
        if (kill.waitFor() != 0 && processes.stream().anyMatch(Processes::isRunning))
        {
            throw new IOException(String.join(" ", command) + " failed: " + output.strip());
        }
    }
}
