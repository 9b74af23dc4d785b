package kupl;

import java.util.Map;

import kupl.bootstrap.SocketOob;

/**
 * One process of a collective-failure check: one rank (or the ranks' settings) makes a window
 * allocation impossible, and every rank must get the same error instead of some succeeding
 * or waiting for ever. Prints "alloc failed: <message>"; then, where the comm's settings
 * allow, allocates a good window, fences and frees it, and prints "recovered". Exits 1 if
 * the bad allocation succeeded. Arguments: scenario, then the bad rank where it applies.
 *
 * <ul>
 *   <li>{@code negative-size R}: rank R asks for -7 bytes;</li>
 *   <li>{@code too-big R}: rank R asks for 1 TiB, more than the shared-memory file system holds;</li>
 *   <li>{@code contiguity R}: rank R asks for a contiguous window, the others not;</li>
 *   <li>{@code fence-algorithm R}: rank R's comm uses KUPL_SHM_FENCE_ALGORITHM=1, the others the default 2;</li>
 *   <li>{@code shm-type R}: rank R's comm uses KUPL_SHM_TYPE=sls, the others posix.</li>
 * </ul>
 */
public final class CollectiveFailureRank
{
    public static void main(final String[] args) throws Exception
    {
        final String scenario = args[0];
        final int badRank = Integer.parseInt(args[1]);
        try (SocketOob oob = SocketOob.fromSystemProperties())
        {
            final int rank = oob.rank();
            final boolean bad = rank == badRank;
            // LocalJob gives every process the same environment: a differing setting is chosen here.
            final KuplConfig config = !bad ? KuplConfig.fromVariables(Map.of()) : switch (scenario)
            {
                case "fence-algorithm" -> KuplConfig.fromVariables(Map.of("KUPL_SHM_FENCE_ALGORITHM", "1"));
                case "shm-type" -> KuplConfig.fromVariables(Map.of("KUPL_SHM_TYPE", "sls"));
                default -> KuplConfig.fromVariables(Map.of());
            };
            final long size = !bad ? 64 : switch (scenario)
            {
                case "negative-size" -> -7;
                case "too-big" -> 1L << 40;
                default -> 64;
            };
            final boolean contiguous = bad && "contiguity".equals(scenario);
            try (ShmComm comm = ShmComm.create(oob.size(), rank, ProcessHandle.current().pid(), oob, null, config))
            {
                try
                {
                    comm.allocate(size, contiguous).close();
                    System.out.println("alloc succeeded");
                    System.exit(1);
                }
                catch (final KuplException e)
                {
                    System.out.println("alloc failed: " + e.getMessage());
                }
                if (!scenario.equals("fence-algorithm") && !scenario.equals("shm-type"))
                {
                    try (ShmWin win = comm.allocate(8, false))
                    {
                        win.fence();
                    }
                    System.out.println("recovered");
                }
            }
        }
    }
}
