package kupl;

/** Element type of an out-of-band allgather ({@code kupl_shm_datatype_t}); the engine only sends {@link #CHAR}. */
public enum ShmDatatype
{
    CHAR(1), INT(4), LONG(8), FLOAT(4), DOUBLE(8);

    private final int sizeBytes;

    ShmDatatype(final int sizeBytes)
    {
        this.sizeBytes = sizeBytes;
    }

    /** Size of one element in bytes. */
    public int sizeBytes()
    {
        return sizeBytes;
    }
}
