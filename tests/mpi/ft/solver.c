/* The ULFM chapter's example 17.2, "fault-tolerant
 * iterative refinement with shrink and agreement", on a real solver:
 * conjugate gradients for -u'' = 1 on (0,1), u(0) = u(1) = 0, N points in
 * blocks over the ranks of a 1-D domain. Every CHECKPOINT iterations the
 * iterate is replicated on every rank (an in-memory checkpoint). When an
 * operation fails the rank revokes the communicator; at an error or at
 * convergence everyone agrees whether all succeeded; if not, they shrink,
 * redistribute the domain over the survivors from the newest checkpoint
 * that every survivor holds, and go on. The answer must be the exact
 * discrete solution x_i = t(1-t)/2, t = i h (the 3-point stencil is exact
 * for quadratics), whatever ranks died.
 *
 * FT_SOLVER_KILLS="w@k,…": world rank w kills itself when it starts
 * iteration k (a recovery sets the count back to its checkpoint's). */
#include "inject.h"

#include <math.h>

enum { N = 240, CHECKPOINT = 10, MAX_ITERS = 4000 };

typedef struct {
    MPI_Comm comm;
    int rank, size, lo, n; /* this rank's block: global points lo .. lo+n-1 */
} Domain;

static void split_domain(Domain *d) {
    MPI_Comm_rank(d->comm, &d->rank);
    MPI_Comm_size(d->comm, &d->size);
    int base = N / d->size, extra = N % d->size;
    d->n = base + (d->rank < extra);
    d->lo = d->rank * base + (d->rank < extra ? d->rank : extra);
}

/* y = A x on this block (A = tridiag(-1, 2, -1)); needs the neighbours'
 * edge values. Returns an MPI error code. */
static int apply(const Domain *d, const double *x, double *y) {
    double left = 0, right = 0; /* boundary values u(0) = u(1) = 0 */
    int lnb = d->rank > 0 ? d->rank - 1 : MPI_PROC_NULL, rnb = d->rank + 1 < d->size ? d->rank + 1 : MPI_PROC_NULL;
    int rc = MPI_Sendrecv(&x[0], 1, MPI_DOUBLE, lnb, 1, &right, 1, MPI_DOUBLE, rnb, 1, d->comm, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc =
            MPI_Sendrecv(&x[d->n - 1], 1, MPI_DOUBLE, rnb, 2, &left, 1, MPI_DOUBLE, lnb, 2, d->comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
    for (int i = 0; i < d->n; ++i) {
        double l = i > 0 ? x[i - 1] : left, r = i + 1 < d->n ? x[i + 1] : right;
        y[i] = 2 * x[i] - l - r;
    }
    return MPI_SUCCESS;
}

static int dot(const Domain *d, const double *a, const double *b, double *out) {
    double s = 0;
    for (int i = 0; i < d->n; ++i) s += a[i] * b[i];
    return MPI_Allreduce(&s, out, 1, MPI_DOUBLE, MPI_SUM, d->comm);
}

/* Replicates the iterate on every rank: the checkpoint. */
static int checkpoint(const Domain *d, const double *x, double *full) {
    int counts[64], displs[64], base = N / d->size, extra = N % d->size;
    for (int r = 0; r < d->size; ++r) {
        counts[r] = base + (r < extra);
        displs[r] = r * base + (r < extra ? r : extra);
    }
    return MPI_Allgatherv(x, d->n, MPI_DOUBLE, full, counts, displs, MPI_DOUBLE, d->comm);
}

/* World rank w dies at its k-th iteration when FT_SOLVER_KILLS names "w@k". */
static void maybe_die(int iteration) {
    const char *s = getenv("FT_SOLVER_KILLS");
    int w, k, used;
    while (s && sscanf(s, "%d@%d%n", &w, &k, &used) == 2) {
        if (w == ft_rank() && k == iteration) {
            printf("world rank %d: killing myself at iteration %d\n", w, iteration);
            ft_die();
        }
        s += used;
        if (*s == ',') ++s;
    }
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0); /* progress lines survive a job killed by its timeout */
    MPI_Init(&argc, &argv);
    int wsize;
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    CHECK(wsize <= 64, "at most 64 ranks");
    Domain d;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &d.comm));
    MPI_Comm_set_errhandler(d.comm, MPI_ERRORS_RETURN);
    split_domain(&d);

    const double h = 1.0 / (N + 1), eps = 1e-13; /* absolute; |b| = 2.7e-4 */
    /* Two checkpoints, by version parity: when a failure interrupts the
     * replication of version v, some survivors hold v and all hold v - 1. */
    double *ckpt[2] = {calloc(N, sizeof(double)), calloc(N, sizeof(double))};
    double *x = calloc(N, sizeof(double)), *r = calloc(N, sizeof(double)), *p = calloc(N, sizeof(double)),
           *q = calloc(N, sizeof(double));
    CHECK(ckpt[0] && ckpt[1] && x && r && p && q, "out of memory");
    int version = 0, iterations = 0, recoveries = 0;
    int restart = 1; /* (re)start CG from ckpt[version % 2] */
    double rr = 0, gnorm = 1;

    for (;;) {
        int rc = MPI_SUCCESS;
        if (restart) {
            for (int i = 0; i < d.n; ++i) x[i] = ckpt[version % 2][d.lo + i];
            rc = apply(&d, x, q); /* r = b - A x, p = r */
            for (int i = 0; rc == MPI_SUCCESS && i < d.n; ++i) p[i] = r[i] = h * h - q[i];
            if (rc == MPI_SUCCESS) rc = dot(&d, r, r, &rr);
            gnorm = sqrt(rr);
            restart = 0;
        }
        while (rc == MPI_SUCCESS && gnorm > eps && iterations < MAX_ITERS) {
            maybe_die(++iterations);
            double pq, rr_new;
            rc = apply(&d, p, q);
            if (rc == MPI_SUCCESS) rc = dot(&d, p, q, &pq);
            if (rc != MPI_SUCCESS) break;
            double alpha = rr / pq;
            for (int i = 0; i < d.n; ++i) {
                x[i] += alpha * p[i];
                r[i] -= alpha * q[i];
            }
            rc = dot(&d, r, r, &rr_new);
            if (rc != MPI_SUCCESS) break;
            for (int i = 0; i < d.n; ++i) p[i] = r[i] + (rr_new / rr) * p[i];
            rr = rr_new;
            gnorm = sqrt(rr);
            if (iterations % CHECKPOINT == 0) {
                rc = checkpoint(&d, x, ckpt[(version + 1) % 2]);
                if (rc == MPI_SUCCESS) ++version;
            }
        }
        CHECK(iterations < MAX_ITERS, "no convergence in %d iterations", MAX_ITERS);
        CHECK(ft_ok_or_failed(rc), "iteration %d gave %s", iterations, error_class_name(rc));

        /* Example 17.2: about to leave or failed — make sure everybody got
         * the same information. */
        if (error_class(rc) == MPIX_ERR_PROC_FAILED) MPIX_Comm_revoke(d.comm);
        int allsucceeded = (rc == MPI_SUCCESS);
        int arc = MPIX_Comm_agree(d.comm, &allsucceeded);
        CHECK(ft_ok_or_failed(arc), "agree gave %s", error_class_name(arc));
        if (allsucceeded && arc == MPI_SUCCESS) break;

        /* Shrink until a communicator of survivors agrees on the checkpoint. */
        for (;;) {
            MPI_Comm smaller;
            MPIX_Comm_revoke(d.comm);
            CHECK_MPI(MPIX_Comm_shrink(d.comm, &smaller));
            MPI_Comm_free(&d.comm);
            d.comm = smaller;
            MPI_Comm_set_errhandler(d.comm, MPI_ERRORS_RETURN);
            int oldest = version;
            rc = MPI_Allreduce(&version, &oldest, 1, MPI_INT, MPI_MIN, d.comm);
            CHECK(ft_ok_or_failed(rc), "allreduce after shrink gave %s", error_class_name(rc));
            if (rc == MPI_SUCCESS) {
                CHECK(version - oldest <= 1, "checkpoint versions %d and %d", version, oldest);
                version = oldest;
                break;
            }
        }
        split_domain(&d);
        ++recoveries;
        restart = 1;
        if (d.rank == 0)
            printf("recovered on %d ranks at iteration %d from checkpoint %d\n", d.size, iterations, version);
        /* The survivors may have left the loop at different iterations (an
         * operation can fail at one rank and succeed at another), so their
         * counters can differ; all go on from the checkpoint's iteration, or
         * they would checkpoint at different times and mismatch collectives. */
        iterations = version * CHECKPOINT;
    }

    /* The answer: the exact discrete solution. */
    double err = 0, maxerr = 0;
    for (int i = 0; i < d.n; ++i) {
        double t = (d.lo + i + 1) * h;
        err = fmax(err, fabs(x[i] - t * (1 - t) / 2));
    }
    CHECK_MPI(MPI_Allreduce(&err, &maxerr, 1, MPI_DOUBLE, MPI_MAX, d.comm));
    if (d.rank == 0)
        printf("CG on %d of %d ranks: %d iterations, %d recoveries, max error %.3g\n", d.size, wsize, iterations,
               recoveries, maxerr);
    CHECK(maxerr < 1e-9, "max error %.3g against the exact solution", maxerr);
    const char *kills = getenv("FT_SOLVER_KILLS");
    if (kills && *kills) CHECK(recoveries >= 1 && d.size < wsize, "a rank was killed but no recovery happened");
    MPI_Comm_free(&d.comm);
    free(x), free(r), free(p), free(q), free(ckpt[0]), free(ckpt[1]);
    MPI_Finalize();
    return 0;
}
