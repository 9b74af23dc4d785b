package xdev.shmdev;

import java.nio.file.Path;
import java.util.Objects;

/**
 * What a rank of a {@code shm} job needs to find its peers, passed as the {@code conf}
 * argument of {@code MPI.Init} ({@code args[1]}): the job's size and id, and the Unix-domain
 * socket of the launcher's out-of-band hub ({@link kupl.bootstrap.OobHub}), written
 * {@code kupl-shm:<size>:<job id>:<socket path>} (the path last, so that it may hold colons).
 *
 * <p>Nothing here is a secret, since every user can read a process's command line: the socket
 * lies in a directory only the launcher's user can enter, so another user cannot connect to it.
 *
 * @param socket the hub's socket.
 * @param size   number of ranks.
 * @param jobId  the hub's job id; also the job's identity in every rank's {@code ProcessID}.
 */
public record ShmConf(Path socket, int size, long jobId)
{
    static final String PREFIX = "kupl-shm:";
    private static final String FORMAT = PREFIX + "<size>:<job id>:<socket path>";

    public ShmConf
    {
        Objects.requireNonNull(socket, "socket");
        if (!socket.isAbsolute())
        {
            throw new IllegalArgumentException("socket=" + socket + " is not an absolute path");
        }
        if (size < 1)
        {
            throw new IllegalArgumentException("size=" + size + " must be at least 1");
        }
    }

    /**
     * Reads a conf argument.
     *
     * @throws IllegalArgumentException naming the text if it is not one this device wrote.
     */
    public static ShmConf parse(final String text)
    {
        if (text == null || !text.startsWith(PREFIX))
        {
            throw new IllegalArgumentException("conf argument '" + text + "' is not a shm device's (" + FORMAT +
                "): start shm jobs with bin/mpjrun -dev shm (mpjrun.ShmJob)");
        }
        final String[] parts = text.substring(PREFIX.length()).split(":", 3);
        try
        {
            if (parts.length != 3)
            {
                throw new IllegalArgumentException("3 fields expected, found " + parts.length);
            }
            return new ShmConf(Path.of(parts[2]), Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException("conf argument '" + text + "' is malformed (" + e.getMessage() +
                "); expected " + FORMAT, e);
        }
    }

    @Override
    public String toString()
    {
        return PREFIX + size + ":" + jobId + ":" + socket;
    }
}
