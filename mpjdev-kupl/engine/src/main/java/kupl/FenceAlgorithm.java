package kupl;

/** The fence implementations, numbered as {@code KUPL_SHM_FENCE_ALGORITHM} numbers them. */
public enum FenceAlgorithm
{
    /** {@code 1}: every process adds itself to one arrival counter; the last one releases all. */
    LINEAR("1"),
    /** {@code 2}: recursive doubling, log2(N) pairwise rounds, with a pre and a post round for the processes beyond the largest power of two. */
    RD("2");

    private final String envValue;

    FenceAlgorithm(final String envValue)
    {
        this.envValue = envValue;
    }

    /** The value of {@code KUPL_SHM_FENCE_ALGORITHM} that selects this algorithm. */
    public String envValue()
    {
        return envValue;
    }

    static FenceAlgorithm ofEnvValue(final String value)
    {
        for (final FenceAlgorithm algorithm : values())
        {
            if (algorithm.envValue.equals(value))
            {
                return algorithm;
            }
        }
        throw new IllegalArgumentException(value);
    }
}
