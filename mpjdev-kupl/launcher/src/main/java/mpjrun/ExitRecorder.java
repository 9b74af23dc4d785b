package mpjrun;

import java.nio.file.Path;
import java.util.function.Supplier;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Records in a multicore job's {@link RankReport} which rank called {@code System.exit}, and with which
 * status: in a multicore job every rank is a thread of one JVM, so one rank's {@code System.exit(0)} ends
 * all of them, and MPJ Express's starter loses the status.
 *
 * <p>How: since JDK 21, {@code Runtime.exit} logs its status to the platform logger {@code java.lang.Runtime}
 * at level DEBUG, on the calling thread, before the shutdown hooks run. Each rank adds one of these handlers
 * to that logger: it records the calls made by a thread of the rank's thread group (MPJ Express's
 * {@code MulticoreStarter} gives each rank thread a group of its own, which threads the rank starts inherit),
 * naming the rank as {@code MPI.COMM_WORLD} numbers it in the rank's own class loader. The first handler
 * installed in the JVM also records calls from threads of no rank (a signal's handler). Nothing is printed.
 * A program that resets {@code java.util.logging} removes the handlers; its exits then go unrecorded, and the
 * verdict counts the ranks cut off as never returned.
 */
final class ExitRecorder extends Handler
{
    /** Kept, since java.util.logging holds its loggers weakly and would forget the level and the handlers. */
    private static volatile Logger runtimeLogger;
    private static final Pattern STATUS = Pattern.compile("Runtime\\.exit\\((-?\\d+)\\)");
    /** The group names MPJ Express's MulticoreStarter gives rank threads. */
    private static final Pattern RANK_GROUP = Pattern.compile("MPI\\d+");

    private final Path report;
    private final ThreadGroup rankGroup;
    private final Supplier<String> rank;
    private final boolean recordsOtherThreads;

    private ExitRecorder(final Path report, final ThreadGroup rankGroup, final Supplier<String> rank,
        final boolean recordsOtherThreads)
    {
        this.report = report;
        this.rankGroup = rankGroup;
        this.rank = rank;
        this.recordsOtherThreads = recordsOtherThreads;
    }

    /**
     * Starts recording the exits of the calling rank thread's group into {@code report}.
     *
     * @param rank                the rank's number when asked (MPI.COMM_WORLD's, once initialised).
     * @param recordsOtherThreads also record exits from threads of no rank: true for one rank of the JVM only.
     */
    static void install(final Path report, final Supplier<String> rank, final boolean recordsOtherThreads)
    {
        final Logger logger = Logger.getLogger("java.lang.Runtime");
        logger.setUseParentHandlers(false);
        logger.addHandler(new ExitRecorder(report, Thread.currentThread().getThreadGroup(), rank, recordsOtherThreads));
        logger.setLevel(Level.FINE);
        runtimeLogger = logger;
    }

    @Override
    public void publish(final LogRecord record)
    {
        final Throwable thrown = record.getThrown();
        final Matcher status = STATUS.matcher(thrown == null || thrown.getMessage() == null ? "" : thrown.getMessage());
        if (!status.matches())
        {
            return;
        }
        if (inGroup(rankGroup))
        {
            RankReport.append(report, RankReport.exit(rank.get(), Integer.parseInt(status.group(1))));
        }
        else if (recordsOtherThreads && !inRankGroup())
        {
            RankReport.append(report, RankReport.exit(RankReport.NO_RANK, Integer.parseInt(status.group(1))));
        }
    }

    private static boolean inGroup(final ThreadGroup wanted)
    {
        for (ThreadGroup group = Thread.currentThread().getThreadGroup(); group != null; group = group.getParent())
        {
            if (group == wanted)
            {
                return true;
            }
        }
        return false;
    }

    private static boolean inRankGroup()
    {
        for (ThreadGroup group = Thread.currentThread().getThreadGroup(); group != null; group = group.getParent())
        {
            if (RANK_GROUP.matcher(group.getName()).matches())
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public void flush()
    {
        // Every line is written and closed as it is published.
    }

    @Override
    public void close()
    {
        // Nothing held open.
    }
}
