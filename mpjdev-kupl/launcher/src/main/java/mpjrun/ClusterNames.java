package mpjrun;

import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The names of one simulated cluster's resources, each carrying the pid of the JVM that owns
 * them, so that a later run can tell leftovers of a dead owner (killed with SIGKILL, say) from
 * a live cluster of a parallel build and remove them.
 *
 * <pre>
 *   kc&lt;pid&gt;s&lt;seq&gt;n&lt;i&gt;   node i: network namespace and host name (i from 1)
 *   kc&lt;pid&gt;s&lt;seq&gt;v&lt;i&gt;   node i's veth, bridge side
 *   kc&lt;pid&gt;s&lt;seq&gt;b      the bridge
 * </pre>
 * {@code seq} numbers the clusters of one JVM. Link names are at most 15 characters
 * ({@code IFNAMSIZ - 1}); a pid of 7 digits and 2-digit {@code seq} and {@code i} give 14.
 */
record ClusterNames(long ownerPid, int sequence)
{
    /** Matches every name above: owner pid in group 1. */
    private static final Pattern NAME = Pattern.compile("kc(\\d+)s(\\d+)[nvb]\\d*");
    private static final int MAX_LINK_NAME = 15;

    ClusterNames
    {
        if (ownerPid < 1 || sequence < 1)
        {
            throw new IllegalArgumentException("ownerPid=" + ownerPid + " sequence=" + sequence + " must be positive");
        }
    }

    /** The common prefix of this cluster's names. */
    String id()
    {
        return "kc" + ownerPid + "s" + sequence;
    }

    /** Node {@code index}'s namespace and host name, {@code index} from 1. */
    String node(final int index)
    {
        return checked(id() + "n" + index);
    }

    /** Node {@code index}'s veth, the end on the bridge. */
    String veth(final int index)
    {
        return checked(id() + "v" + index);
    }

    String bridge()
    {
        return checked(id() + "b");
    }

    /** The owner pid of a cluster resource called {@code name}, or empty if the name is not one of ours. */
    static OptionalLong ownerOf(final String name)
    {
        final Matcher matcher = NAME.matcher(name);
        return matcher.matches() ? OptionalLong.of(Long.parseLong(matcher.group(1))) : OptionalLong.empty();
    }

    /** Whether the process {@code pid} is gone, so that what it owned may be removed. */
    static boolean ownerIsGone(final long pid)
    {
        return ProcessHandle.of(pid).map(handle -> !handle.isAlive()).orElse(true);
    }

    private static String checked(final String name)
    {
        if (name.length() > MAX_LINK_NAME)
        {
            throw new IllegalStateException("link name " + name + " is longer than " + MAX_LINK_NAME + " characters");
        }
        return name;
    }
}
