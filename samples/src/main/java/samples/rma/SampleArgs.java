package samples.rma;

/** The optional numeric arguments of the samples, checked with a message naming the argument. */
final class SampleArgs
{
    private SampleArgs()
    {
    }

    /** {@code args[index]} as a positive int, or {@code defaultValue} if there are fewer arguments. */
    static int positive(final String[] args, final int index, final String name, final int defaultValue)
    {
        if (args == null || args.length <= index)
        {
            return defaultValue;
        }
        final int value;
        try
        {
            value = Integer.parseInt(args[index]);
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException(name + "=" + args[index] + " is not a number: give a positive integer", e);
        }
        if (value <= 0)
        {
            throw new IllegalArgumentException(name + "=" + value + " must be positive");
        }
        return value;
    }
}
