/*
 * Each reduction algorithm forced in turn (force_algorithm, check.h,
 * plus the automatic choice), with a predefined op, a commutative user op and
 * a NON-commutative user op, which must combine in rank order: the op
 * composes affine maps x -> a*x + b (mod a prime), so any reordering changes
 * the answer. Sizes from 0 to past the ring thresholds, every root, in place.
 */
#include "check.h"

#include <string.h>

#define PRIME 1009

typedef struct {
    long long a, b;
} affine;

static int rank, size;
static MPI_Datatype affine_type;
static MPI_Op compose_op, add_mod_op;

/* inout = in then inout: apply in's map first (in comes from lower ranks). */
static void compose(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    affine *x = in, *y = inout;
    for (int i = 0; i < *len; ++i) {
        affine r = {(y[i].a * x[i].a) % PRIME, (y[i].a * x[i].b + y[i].b) % PRIME};
        y[i] = r;
    }
}

static void add_mod(void *in, void *inout, int *len, MPI_Datatype *type) {
    (void)type;
    int *x = in, *y = inout;
    for (int i = 0; i < *len; ++i) y[i] = (x[i] + y[i]) % PRIME;
}

static affine affine_input(int r, int i) {
    affine v = {(r * 31 + i * 7) % (PRIME - 2) + 2, (r * 17 + i * 13 + 5) % PRIME};
    return v;
}
static int int_input(int r, int i) {
    return (r * 131 + i * 7) % PRIME;
}

static affine affine_ref(int first, int last, int i) {
    affine acc = affine_input(first, i);
    for (int r = first + 1; r <= last; ++r) {
        affine x = affine_input(r, i);
        affine n = {(x.a * acc.a) % PRIME, (x.a * acc.b + x.b) % PRIME};
        acc = n;
    }
    return acc;
}
static int int_ref(int first, int last, int i, int modular) {
    long long acc = 0;
    for (int r = first; r <= last; ++r) acc += int_input(r, i);
    return (int)(modular ? acc % PRIME : acc);
}

enum which { BUILTIN_SUM, USER_COMMUTATIVE, USER_ORDERED };
static const char *which_names[] = {"MPI_SUM", "user commutative", "user non-commutative"};

static size_t elem_size(enum which w) {
    return w == USER_ORDERED ? sizeof(affine) : sizeof(int);
}

static void fill(enum which w, void *buf, int n, int offset) {
    for (int i = 0; i < n; ++i) {
        if (w == USER_ORDERED)
            ((affine *)buf)[i] = affine_input(rank, offset + i);
        else
            ((int *)buf)[i] = int_input(rank, offset + i);
    }
}

static void expect(enum which w, const void *buf, int n, int first, int last, int offset, const char *what) {
    for (int i = 0; i < n; ++i) {
        if (w == USER_ORDERED) {
            affine want = affine_ref(first, last, offset + i), got = ((const affine *)buf)[i];
            CHECK(got.a == want.a && got.b == want.b, "%s (%s) n=%d [%d]: got (%lld,%lld), want (%lld,%lld)", what,
                  which_names[w], n, i, got.a, got.b, want.a, want.b);
        } else {
            int want = int_ref(first, last, offset + i, w == USER_COMMUTATIVE), got = ((const int *)buf)[i];
            CHECK(got == want, "%s (%s) n=%d [%d]: got %d, want %d", what, which_names[w], n, i, got, want);
        }
    }
}

/* Which collectives a run exercises: all of them for the automatic choice,
 * the forced one's otherwise. */
enum { ALLREDUCE = 1, REDUCE = 2, SCAN = 4, REDUCE_SCATTER = 8, ALL = 15 };

static void run(enum which w, int n, const char *label, int mask) {
    MPI_Datatype type = w == USER_ORDERED ? affine_type : MPI_INT;
    MPI_Op op = w == BUILTIN_SUM ? MPI_SUM : w == USER_COMMUTATIVE ? add_mod_op : compose_op;
    size_t es = elem_size(w);
    char *in = calloc((size_t)(n * size + 1), es), *out = calloc((size_t)(n * size + 1), es);
    char what[96];

    fill(w, in, n, 0);
    snprintf(what, sizeof what, "Allreduce[%s]", label);
    if (mask & ALLREDUCE) {
        CHECK_MPI(MPI_Allreduce(in, out, n, type, op, MPI_COMM_WORLD));
        expect(w, out, n, 0, size - 1, 0, what);
        fill(w, out, n, 0);
        CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, out, n, type, op, MPI_COMM_WORLD));
        expect(w, out, n, 0, size - 1, 0, what);
    }

    snprintf(what, sizeof what, "Reduce[%s]", label);
    for (int root = 0; (mask & REDUCE) && root < size; ++root) {
        if (n > 1000 && root != size - 1) continue;
        CHECK_MPI(MPI_Reduce(in, out, n, type, op, root, MPI_COMM_WORLD));
        if (rank == root) expect(w, out, n, 0, size - 1, 0, what);
        if (rank == root) fill(w, out, n, 0);
        CHECK_MPI(MPI_Reduce(rank == root ? MPI_IN_PLACE : in, out, n, type, op, root, MPI_COMM_WORLD));
        if (rank == root) expect(w, out, n, 0, size - 1, 0, what);
    }

    snprintf(what, sizeof what, "Scan[%s]", label);
    if (mask & SCAN) {
        CHECK_MPI(MPI_Scan(in, out, n, type, op, MPI_COMM_WORLD));
        expect(w, out, n, 0, rank, 0, what);
        snprintf(what, sizeof what, "Exscan[%s]", label);
        CHECK_MPI(MPI_Exscan(in, out, n, type, op, MPI_COMM_WORLD));
        if (rank > 0) expect(w, out, n, 0, rank - 1, 0, what);
        fill(w, out, n, 0);
        CHECK_MPI(MPI_Exscan(MPI_IN_PLACE, out, n, type, op, MPI_COMM_WORLD));
        if (rank > 0) expect(w, out, n, 0, rank - 1, 0, what);
    }

    snprintf(what, sizeof what, "Reduce_scatter_block[%s]", label);
    if (mask & REDUCE_SCATTER) {
        fill(w, in, n * size, 0);
        CHECK_MPI(MPI_Reduce_scatter_block(in, out, n, type, op, MPI_COMM_WORLD));
        expect(w, out, n, 0, size - 1, rank * n, what);
        snprintf(what, sizeof what, "Reduce_scatter[%s]", label);
        int *counts = malloc(sizeof(int) * (size_t)size), offset = 0;
        for (int r = 0; r < size; ++r) {
            counts[r] = n > 0 ? (r % 2 ? n - 1 : n + 1) : 0;
            if (r < rank) offset += counts[r];
        }
        fill(w, in, n * size + 1, 0);
        CHECK_MPI(MPI_Reduce_scatter(in, out, counts, type, op, MPI_COMM_WORLD));
        expect(w, out, counts[rank], 0, size - 1, offset, what);
        free(counts);
    }
    free(in);
    free(out);
}

static const struct {
    const char *collective;
    int mask;
    const char *algorithms[5];
} choices[] = {
    {"ALLREDUCE", ALLREDUCE, {"recursive_doubling", "ring", "reduce_bcast", "rabenseifner", NULL}},
    {"REDUCE_SCATTER", REDUCE_SCATTER, {"ring", "reduce_scatterv", "recursive_halving", NULL}},
    {"SCAN", SCAN, {"linear", "recursive_doubling", NULL}},
    {"EXSCAN", SCAN, {"linear", "recursive_doubling", NULL}},
};

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Type_contiguous(2, MPI_LONG_LONG, &affine_type);
    MPI_Type_commit(&affine_type);
    MPI_Op_create(compose, 0, &compose_op);
    MPI_Op_create(add_mod, 1, &add_mod_op);

    /* Past the ring threshold (64 KiB) for ints and for the 16-byte pairs. */
    static const int sizes[] = {0, 1, 5, 17, 20000};
    for (int c = -1; c < (int)(sizeof choices / sizeof choices[0]); ++c)
        for (int a = 0; c < 0 ? a < 1 : choices[c].algorithms[a] != NULL; ++a) {
            const char *label = c < 0 ? "automatic" : choices[c].algorithms[a];
            if (c >= 0) force_algorithm(choices[c].collective, label);
            for (int w = 0; w < 3; ++w)
                for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); ++s)
                    run((enum which)w, sizes[s], label, c < 0 ? ALL : choices[c].mask);
            if (c >= 0) force_algorithm(choices[c].collective, NULL);
        }

    MPI_Op_free(&compose_op);
    MPI_Op_free(&add_mod_op);
    MPI_Type_free(&affine_type);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("reduce_algorithms: %d ranks OK\n", size);
    MPI_Finalize();
    return 0;
}
