package mpi.rma;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import mpi.MPI;
import mpi.Request;
import mpi.rma.internal.Completion;
import org.junit.jupiter.api.Test;

/** {@link WinRequest} over completions whose progress the test controls. */
class WinRequestTest
{
    /** Completes after {@code testsLeft} tests, or at once when awaited; fails instead if {@code failure} is set. */
    private static final class Scripted implements Completion
    {
        int testsLeft;
        int tests;
        int awaits;
        RmaException failure;

        Scripted(final int testsLeft)
        {
            this.testsLeft = testsLeft;
        }

        @Override
        public boolean test(final String call)
        {
            tests++;
            if (failure != null)
            {
                throw failure;
            }
            return testsLeft-- <= 0;
        }

        @Override
        public void await(final String call)
        {
            awaits++;
            if (failure != null)
            {
                throw failure;
            }
            testsLeft = 0;
        }
    }

    @Test
    void shouldCompleteAtOnceWhenTheCallDidAndStayComplete()
    {
        final WinRequest request = new WinRequest("Win.rPut", Completion.DONE);

        assertFalse(request.Is_null());
        assertTrue(request.test());
        assertTrue(request.Is_null());
        request.waitFor();
        assertTrue(request.test());
    }

    @Test
    void shouldTestUntilTheOperationCompletesThenWaitNoMore()
    {
        final Scripted pending = new Scripted(2);
        final WinRequest request = new WinRequest("Win.rGet", pending);

        assertFalse(request.test());
        assertFalse(request.test());
        assertFalse(request.Is_null());
        assertTrue(request.test());
        request.waitFor();

        assertEquals(3, pending.tests);
        assertEquals(0, pending.awaits, "a completed request is not awaited again");
    }

    @Test
    void shouldReturnEachIndexOnceFromWaitAnyThenUndefined()
    {
        final WinRequest slow = new WinRequest("Win.rGet", new Scripted(1000));
        final WinRequest quick = new WinRequest("Win.rGet", new Scripted(1));
        final WinRequest[] requests = {null, slow, quick};

        assertEquals(2, WinRequest.waitAny(requests), "the one that completes while polled");
        assertEquals(1, WinRequest.waitAny(requests), "then the other, waited for");
        assertEquals(MPI.UNDEFINED, WinRequest.waitAny(requests));
        assertEquals(MPI.UNDEFINED, WinRequest.waitAny());
    }

    @Test
    void shouldMakeNoneInactiveUnlessTestAllFindsAllComplete()
    {
        final WinRequest done = new WinRequest("Win.rPut", Completion.DONE);
        final WinRequest pending = new WinRequest("Win.rGet", new Scripted(1));

        assertFalse(WinRequest.testAll(done, pending, null));
        assertFalse(done.Is_null());
        assertTrue(WinRequest.testAll(done, pending, null));
        assertTrue(done.Is_null() && pending.Is_null());
    }

    @Test
    void shouldCompleteTheOthersBeforeThrowingTheFirstFailureOfWaitAll()
    {
        final Scripted failing = new Scripted(5);
        failing.failure = new RmaException(ErrorClass.ERR_PROC_FAILED, "rank 1 died");
        final Scripted after = new Scripted(5);
        final WinRequest broken = new WinRequest("Win.rGet", failing);

        final RmaException e = assertThrows(RmaException.class,
            () -> WinRequest.waitAll(broken, new WinRequest("Win.rGet", after)));

        assertSame(failing.failure, e);
        assertEquals(1, after.awaits);
        assertSame(e, assertThrows(RmaException.class, broken::waitFor), "the same failure each time");
        assertEquals(1, failing.awaits);
    }

    @Test
    void shouldServeMpjExpressRequestCallsAsItsOwn()
    {
        final Scripted pending = new Scripted(1);
        final WinRequest request = new WinRequest("Win.rGet", pending);
        final Request asMpj = request;

        assertNull(asMpj.Test());
        assertNotNull(Request.Waitall(new Request[] {asMpj})[0]);
        assertTrue(asMpj.Is_null());
        assertEquals(ErrorClass.ERR_REQUEST, assertThrows(RmaException.class, asMpj::Cancel).errorClass());
    }

    @Test
    void shouldRefuseANullArrayOfRequests()
    {
        assertEquals(ErrorClass.ERR_ARG,
            assertThrows(RmaException.class, () -> WinRequest.waitAll((WinRequest[])null)).errorClass());
    }
}
