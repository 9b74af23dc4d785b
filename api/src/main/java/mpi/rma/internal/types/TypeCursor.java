package mpi.rma.internal.types;

/**
 * Walks the elements of {@code count} copies of a datatype in type-map order, a block at a time:
 * {@link #position()} is the next element (relative to the buffer's start, in elements),
 * {@link #available()} how many follow it without a gap. A dense type's copies are one block.
 */
public final class TypeCursor
{
    private final TypeLayout layout;
    private final int count;
    private final boolean dense;
    private int copy;
    private int block;
    private long done;
    private long left;

    public TypeCursor(final TypeLayout layout, final int count)
    {
        this.layout = layout;
        this.count = count;
        this.dense = layout.isDense();
        if (dense)
        {
            left = layout.size() * count;
        }
        else
        {
            copy = count == 0 ? 0 : -1;
            block = layout.blockCount();
            nextBlock();
        }
    }

    /** The next element, relative to the buffer's start. */
    public long position()
    {
        return dense ? layout.displacement(0) + done : copy * layout.extent() + layout.displacement(block) + done;
    }

    /** Elements from {@link #position()} on without a gap; 0 when the walk is over. */
    public long available()
    {
        return left;
    }

    /** Moves past {@code elements} elements, at most {@link #available()}. */
    public void advance(final long elements)
    {
        done += elements;
        left -= elements;
        if (left == 0 && !dense)
        {
            nextBlock();
        }
    }

    private void nextBlock()
    {
        done = 0;
        while (left == 0)
        {
            block++;
            if (block >= layout.blockCount())
            {
                block = 0;
                copy++;
                if (copy >= count || layout.blockCount() == 0)
                {
                    copy = count;
                    return;
                }
            }
            left = layout.length(block);
        }
    }
}
