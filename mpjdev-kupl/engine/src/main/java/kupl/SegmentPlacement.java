package kupl;

import java.util.Arrays;

/**
 * Where each segment of a {@link ShmWin} lies, the same on every process: one object holding every segment
 * ({@link ShmType#SLS} or contiguous), or one object per process. Contiguous segments lie back to back in rank order;
 * otherwise each segment of a shared object starts on its own page.
 *
 * @param oneObject  whether one object holds every segment.
 * @param offsets    each segment's byte offset in its object.
 * @param totalBytes the bytes of the one object (or the sum of the segments).
 */
record SegmentPlacement(boolean oneObject, long[] offsets, long totalBytes)
{
    /** Segments inside a shared object start on page boundaries unless the window is contiguous. */
    static final long SEGMENT_ALIGNMENT_BYTES = 4096;

    /** The placement of {@code sizes} (bytes by rank) with {@code config}'s object type. */
    static SegmentPlacement of(final long[] sizes, final boolean contiguous, final KuplConfig config)
    {
        final boolean oneObject = contiguous || config.shmType() == ShmType.SLS;
        if (oneObject)
        {
            checkTotalFits(sizes);
        }
        final long[] offsets = new long[sizes.length];
        long totalBytes = 0;
        for (int peer = 0; peer < sizes.length; peer++)
        {
            offsets[peer] = contiguous || !oneObject || sizes[peer] == 0 ? totalBytes :
                ControlDescriptor.align(totalBytes, SEGMENT_ALIGNMENT_BYTES);
            totalBytes = offsets[peer] + sizes[peer];
        }
        return new SegmentPlacement(oneObject, offsets, totalBytes);
    }

    /**
     * Throws, identically on every process (all see the same sizes), if one object cannot hold
     * every segment with its alignment: the offsets would wrap around past Long.MAX_VALUE.
     */
    private static void checkTotalFits(final long[] sizes)
    {
        try
        {
            long boundBytes = 0;
            for (final long size : sizes)
            {
                boundBytes = Math.addExact(boundBytes, Math.addExact(size, SEGMENT_ALIGNMENT_BYTES));
            }
        }
        catch (final ArithmeticException e)
        {
            throw new KuplException("win alloc failed: the segments add up to more than " + Long.MAX_VALUE +
                " bytes, too many for one shared object (sizes by rank: " + Arrays.toString(sizes) +
                "); ask for less");
        }
    }
}
