package mpjrun;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;

/**
 * Whether a {@link SimulatedCluster} can be made on this machine: root, {@code ip} and {@code unshare}, a
 * network namespace that may be made and entered with a host name of its own, and a writable
 * {@code /etc/hosts}. Found once per JVM by making and deleting a namespace, and the reason kept, so that every
 * test that needs a cluster asks cheaply and skips with the same words.
 */
final class ClusterAvailability
{
    private static volatile String cachedRefusal;

    private ClusterAvailability()
    {
    }

    /** Why no cluster can be made here, or null if one can: found once per JVM. */
    static String refusal()
    {
        String refusal = cachedRefusal;
        if (refusal == null)
        {
            refusal = probe();
            cachedRefusal = refusal;
        }
        return refusal.isEmpty() ? null : refusal;
    }

    private static String probe()
    {
        final String prefix = "a simulated cluster needs network namespaces: ";
        try
        {
            final Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            if (!Integer.valueOf(0).equals(uid))
            {
                return prefix + "run as root (this JVM runs as uid " + uid + "; 'ip netns add' needs root)";
            }
        }
        catch (final IOException | UnsupportedOperationException | IllegalArgumentException e)
        {
            return prefix + "cannot tell this JVM's user (" + e.getMessage() + "); it must run as root on Linux";
        }
        if (!Files.isWritable(HostsFile.ETC_HOSTS))
        {
            return prefix + HostsFile.ETC_HOSTS + " is not writable, and the nodes' names must resolve through it";
        }
        final String namespace = new ClusterNames(ProcessHandle.current().pid(),
            SimulatedCluster.SEQUENCE.incrementAndGet()).node(0);
        try
        {
            HostCommand.run("ip", "netns", "add", namespace);
        }
        catch (final IOException e)
        {
            return prefix + "'ip netns add' is not permitted here (" + e.getMessage() + ")";
        }
        try
        {
            HostCommand.run("ip", "netns", "exec", namespace, "unshare", "--uts", "true");
            return "";
        }
        catch (final IOException e)
        {
            return prefix + "a process cannot enter one with a host name of its own (" + e.getMessage() + ")";
        }
        finally
        {
            HostCommand.runNoting(new ArrayList<>(), "ip", "netns", "del", namespace);
        }
    }
}
