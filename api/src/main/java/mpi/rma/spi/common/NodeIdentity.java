package mpi.rma.spi.common;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A number that is equal for two processes exactly when they run on the same node: a hash of
 * the kernel's boot id (unique per boot of a machine) and the host name.
 */
public final class NodeIdentity
{
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");

    private NodeIdentity()
    {
    }

    /** This process's node, found once: it cannot change while the process runs. */
    public static long current()
    {
        // Each look-up reads /proc and resolves the host name: about 15 us, on every allocateShared.
        return Once.NODE;
    }

    /** Holder: computed on first use, by the JVM's class initialisation (thread-safe, then free). */
    private static final class Once
    {
        static final long NODE = compute();
    }

    private static long compute()
    {
        String text;
        try
        {
            text = Files.readString(BOOT_ID, StandardCharsets.US_ASCII).trim();
        }
        catch (final IOException e)
        {
            text = "no-boot-id";
        }
        try
        {
            text += "@" + InetAddress.getLocalHost().getHostName();
        }
        catch (final IOException e)
        {
            text += "@unknown-host";
        }
        // FNV-1a: stable across JVMs, unlike String.hashCode's 32 bits it rarely collides.
        long hash = 0xcbf29ce484222325L;
        for (final byte b : text.getBytes(StandardCharsets.UTF_8))
        {
            hash = (hash ^ (b & 0xff)) * 0x100000001b3L;
        }
        return hash;
    }

    /**
     * The lowest rank whose node ({@link #current()}, one per rank in {@code nodes}) is {@code rank}'s: equal
     * exactly for the processes of one node, never negative, so a colour for {@code Split}.
     */
    public static int lowestRankOnNode(final long[] nodes, final int rank)
    {
        for (int other = 0; other < rank; other++)
        {
            if (nodes[other] == nodes[rank])
            {
                return other;
            }
        }
        return rank;
    }
}
