package kupl;

/** Process-wide allocation settings of {@link Kupl#shmInfoSet} ({@code kupl_info_flag_t}). */
public enum ShmInfoFlag
{
    /**
     * 1: lay the segments of every window allocated afterwards back to back, so that process
     * i's base is process i-1's base plus its size; 0 (default): one segment per process.
     */
    IS_CONTIG
}
