package mpjrun;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * What simulated clusters leave on the machine and how it goes: the processes in their network namespaces,
 * the namespaces, links, {@code /etc/hosts} lines and directories. A {@link SimulatedCluster} removes its own
 * at {@link SimulatedCluster#close()}; one whose JVM was killed with SIGKILL cannot, so the next cluster made
 * on the machine removes what belongs to owners that are gone ({@link ClusterNames#ownerIsGone}).
 */
final class ClusterLeftovers
{
    private ClusterLeftovers()
    {
    }

    /**
     * Removes what clusters of owners that are gone left behind: the processes in their namespaces,
     * the namespaces, links, {@code /etc/hosts} lines and directories. Call under {@link HostsFile#locked}.
     */
    static void removeStale() throws IOException
    {
        final List<String> problems = new ArrayList<>();
        for (final String line : HostCommand.run("ip", "netns", "list").lines().toList())
        {
            final String namespace = line.split("\\s+")[0];
            if (isStale(namespace))
            {
                killProcessesIn(namespace, problems);
                HostCommand.runNoting(problems, "ip", "netns", "del", namespace);
            }
        }
        for (final String line : HostCommand.run("ip", "-o", "link", "show").lines().toList())
        {
            // "12: kc123s1v1@if2: <BROADCAST,...> ...": the name is the second field, before any '@'.
            final String[] fields = line.split(":\\s+", 3);
            final String link = fields.length > 1 ? fields[1].split("@")[0] : "";
            if (isStale(link))
            {
                HostCommand.runNoting(problems, "ip", "link", "del", link);
            }
        }
        new HostsFile(HostsFile.ETC_HOSTS).removeDead();
        try (Stream<Path> entries = Files.list(Path.of(System.getProperty("java.io.tmpdir"))))
        {
            entries.filter(entry -> entry.getFileName().toString().startsWith(SimulatedCluster.DIRECTORY_PREFIX) &&
                isStale(entry.getFileName().toString().substring(SimulatedCluster.DIRECTORY_PREFIX.length()) + "n"))
                .forEach(entry -> deleteQuietly(entry, problems));
        }
        problems.forEach(problem -> System.err.println("[cluster] removing a dead owner's cluster: " + problem));
    }

    private static boolean isStale(final String name)
    {
        return ClusterNames.ownerOf(name).stream().anyMatch(ClusterNames::ownerIsGone);
    }

    /** Kills every process in network namespace {@code namespace}, noting in {@code problems} what failed. */
    static void killProcessesIn(final String namespace, final List<String> problems)
    {
        try
        {
            for (final String pid : HostCommand.run("ip", "netns", "pids", namespace).lines().toList())
            {
                ProcessHandle.of(Long.parseLong(pid.strip())).ifPresent(process ->
                {
                    process.destroyForcibly();
                    process.onExit().orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> null).join();
                });
            }
        }
        catch (final IOException | NumberFormatException e)
        {
            problems.add("could not list the processes in " + namespace + ": " + e.getMessage());
        }
    }

    /** Deletes {@code path} and what it holds, noting in {@code problems} what failed. */
    static void deleteQuietly(final Path path, final List<String> problems)
    {
        try
        {
            MpjHome.deleteTree(path);
        }
        catch (final UncheckedIOException e)
        {
            problems.add(e.getMessage());
        }
    }
}
