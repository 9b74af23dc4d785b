package kupl;

import java.util.Locale;

/** How a window's memory is provided, as {@code KUPL_SHM_TYPE} names it. */
public enum ShmType
{
    /** One shared-memory object per process holding that process's segment. */
    POSIX,
    /**
     * One shared-memory object per window holding every process's segment, created by rank 0
     * and mapped by all. Named after KUPL's {@code sls} backend; the Kunpeng kernel facility
     * of that name is not used.
     */
    SLS;

    /** The value of {@code KUPL_SHM_TYPE} that selects this type. */
    public String envValue()
    {
        return name().toLowerCase(Locale.ROOT);
    }
}
