package xdev.shmdev;

/**
 * What a rank of a {@code shm} job needs to find its peers, passed as the {@code conf}
 * argument of {@code MPI.Init} ({@code args[1]}): the job's size and the loopback port and
 * token of the launcher's out-of-band hub ({@link kupl.bootstrap.OobHub}), written
 * {@code kupl-shm:<port>:<size>:<token>}.
 *
 * @param port  loopback port of the hub.
 * @param size  number of ranks.
 * @param token the hub's secret; also the job's identity in every rank's {@code ProcessID}.
 */
public record ShmConf(int port, int size, long token)
{
    static final String PREFIX = "kupl-shm:";

    public ShmConf
    {
        if (port < 1 || port > 65535)
        {
            throw new IllegalArgumentException("port=" + port + " is not a TCP port (1-65535)");
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
            throw new IllegalArgumentException("conf argument '" + text + "' is not a shm device's (" + PREFIX +
                "<port>:<size>:<token>): start shm jobs with bin/mpjrun -dev shm (mpjrun.ShmJob)");
        }
        final String[] parts = text.substring(PREFIX.length()).split(":");
        try
        {
            if (parts.length != 3)
            {
                throw new NumberFormatException("3 fields expected, found " + parts.length);
            }
            return new ShmConf(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]), Long.parseLong(parts[2]));
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("conf argument '" + text + "' is malformed (" + e.getMessage() +
                "); expected " + PREFIX + "<port>:<size>:<token>", e);
        }
    }

    @Override
    public String toString()
    {
        return PREFIX + port + ":" + size + ":" + token;
    }
}
