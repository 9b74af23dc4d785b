package mpjrun;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The simulated nodes' lines in {@code /etc/hosts} (one file for every network namespace), so
 * that each node's name resolves to its address there. Every line we add ends with
 * {@code # kupl-cluster owner=PID}; {@link #remove} takes out exactly the lines of one cluster,
 * and {@link #removeDead} those whose owner is gone. Everything else in the file stays as it
 * was, byte for byte.
 *
 * <p>Edits are made under a lock file shared by every simulated cluster of this machine
 * ({@link #LOCK_FILE}), and in place: the file is often a bind mount, which a rename cannot
 * replace. Lines are only ever appended or removed, and the rewrite starts at the first byte
 * that changes, so the lines before it ({@code localhost} at the top) never disappear for a
 * process of another build that resolves a name meanwhile.
 */
final class HostsFile
{
    static final Path ETC_HOSTS = Path.of("/etc/hosts");
    /** Held while a cluster edits {@code /etc/hosts} or picks its subnet. */
    static final Path LOCK_FILE = Path.of(System.getProperty("java.io.tmpdir"), "kupl-cluster.lock");
    static final String MARKER = "# kupl-cluster owner=";

    private static final Pattern OUR_LINE = Pattern.compile("^(\\S+)\\s+(\\S+)\\s+# kupl-cluster owner=(\\d+)\\s*$");

    private final Path file;

    HostsFile(final Path file)
    {
        this.file = file;
    }

    /** Runs {@code action} holding the machine-wide cluster lock. */
    static <T> T locked(final IoSupplier<T> action) throws IOException
    {
        try (FileChannel channel = FileChannel.open(LOCK_FILE, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock = channel.lock())
        {
            return action.get();
        }
    }

    /** What {@link #locked} runs. */
    interface IoSupplier<T>
    {
        T get() throws IOException;
    }

    /** Appends {@code address name # kupl-cluster owner=PID} for each node. Call under {@link #locked}. */
    void add(final List<String> addresses, final List<String> names, final long ownerPid) throws IOException
    {
        final StringBuilder lines = new StringBuilder();
        final String text = Files.readString(file);
        if (!text.isEmpty() && !text.endsWith("\n"))
        {
            lines.append('\n');
        }
        for (int i = 0; i < names.size(); i++)
        {
            lines.append(addresses.get(i)).append('\t').append(names.get(i)).append('\t').append(MARKER)
                .append(ownerPid).append('\n');
        }
        Files.writeString(file, lines, StandardOpenOption.APPEND);
    }

    /** Removes the lines naming any of {@code names} that we added. Call under {@link #locked}. */
    void remove(final Set<String> names) throws IOException
    {
        rewriteWithout(line ->
        {
            final Matcher matcher = OUR_LINE.matcher(line);
            return matcher.matches() && names.contains(matcher.group(2));
        });
    }

    /** Removes the lines we added for owners that are gone. Call under {@link #locked}. */
    void removeDead() throws IOException
    {
        rewriteWithout(line ->
        {
            final Matcher matcher = OUR_LINE.matcher(line);
            return matcher.matches() && ClusterNames.ownerIsGone(Long.parseLong(matcher.group(3)));
        });
    }

    /** The names of our lines still in the file (for tests: nothing must be left). */
    List<String> ourNames() throws IOException
    {
        final List<String> names = new ArrayList<>();
        for (final String line : Files.readAllLines(file))
        {
            final Matcher matcher = OUR_LINE.matcher(line);
            if (matcher.matches())
            {
                names.add(matcher.group(2));
            }
        }
        return names;
    }

    /** The third octets of the {@code 10.77.x.y} addresses of our lines: subnets in use by live clusters. */
    Set<Integer> subnetsInUse(final String prefix) throws IOException
    {
        final Set<Integer> used = new TreeSet<>();
        for (final String line : Files.readAllLines(file))
        {
            final Matcher matcher = OUR_LINE.matcher(line);
            if (matcher.matches() && matcher.group(1).startsWith(prefix))
            {
                final String rest = matcher.group(1).substring(prefix.length());
                used.add(Integer.parseInt(rest.substring(0, rest.indexOf('.'))));
            }
        }
        return used;
    }

    private void rewriteWithout(final java.util.function.Predicate<String> drop) throws IOException
    {
        final String old = Files.readString(file);
        final StringBuilder kept = new StringBuilder(old.length());
        boolean changed = false;
        for (final String line : old.split("(?<=\n)"))
        {
            if (drop.test(line.strip()))
            {
                changed = true;
            }
            else
            {
                kept.append(line);
            }
        }
        if (!changed)
        {
            return;
        }
        final byte[] oldBytes = old.getBytes(StandardCharsets.UTF_8);
        final byte[] newBytes = kept.toString().getBytes(StandardCharsets.UTF_8);
        int same = 0;
        while (same < newBytes.length && newBytes[same] == oldBytes[same])
        {
            same++;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            // The common prefix is not written again; the rest is overwritten, then the file is cut.
            channel.write(ByteBuffer.wrap(newBytes, same, newBytes.length - same), same);
            channel.truncate(newBytes.length);
        }
    }
}
