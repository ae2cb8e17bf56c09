/*
 * Every reducing collective (Reduce, Allreduce, Reduce_scatter(_block),
 * Scan, Exscan, blocking and non-blocking) with every predefined op on every
 * C type it is defined for, at several sizes including zero, checked element
 * by element against a reference computed locally. Inputs are small integers
 * chosen so every result is exact in every type (no overflow, no rounding),
 * so any order of combination must give the same answer.
 *
 * Plain MPI: also runs with Open MPI and MPICH, which checks the test itself.
 */
#include "check.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

enum kind { SIGNED, UNSIGNED, FLOATING, BYTES };

struct type_info {
    const char *name;
    MPI_Datatype type;
    size_t size;
    enum kind kind;
    void (*set)(void *, int, double);
    double (*get)(const void *, int);
};

#define ACCESSORS(T, tag)                                                                                              \
    static void set_##tag(void *b, int i, double v) {                                                                  \
        ((T *)b)[i] = (T)v;                                                                                            \
    }                                                                                                                  \
    static double get_##tag(const void *b, int i) {                                                                    \
        return (double)((const T *)b)[i];                                                                              \
    }
ACCESSORS(signed char, schar)
ACCESSORS(unsigned char, uchar)
ACCESSORS(short, short)
ACCESSORS(unsigned short, ushort)
ACCESSORS(int, int)
ACCESSORS(unsigned, uint)
ACCESSORS(long, long)
ACCESSORS(unsigned long, ulong)
ACCESSORS(long long, llong)
ACCESSORS(unsigned long long, ullong)
ACCESSORS(int8_t, i8)
ACCESSORS(uint16_t, u16)
ACCESSORS(int32_t, i32)
ACCESSORS(uint64_t, u64)
ACCESSORS(float, float)
ACCESSORS(double, double)
ACCESSORS(long double, ldouble)

#define TYPE(T, tag, mpi, kind)                                                                                        \
    { #mpi, mpi, sizeof(T), kind, set_##tag, get_##tag }
static struct type_info types[] = {
    TYPE(signed char, schar, MPI_SIGNED_CHAR, SIGNED),
    TYPE(unsigned char, uchar, MPI_UNSIGNED_CHAR, UNSIGNED),
    TYPE(short, short, MPI_SHORT, SIGNED),
    TYPE(unsigned short, ushort, MPI_UNSIGNED_SHORT, UNSIGNED),
    TYPE(int, int, MPI_INT, SIGNED),
    TYPE(unsigned, uint, MPI_UNSIGNED, UNSIGNED),
    TYPE(long, long, MPI_LONG, SIGNED),
    TYPE(unsigned long, ulong, MPI_UNSIGNED_LONG, UNSIGNED),
    TYPE(long long, llong, MPI_LONG_LONG, SIGNED),
    TYPE(unsigned long long, ullong, MPI_UNSIGNED_LONG_LONG, UNSIGNED),
    TYPE(int8_t, i8, MPI_INT8_T, SIGNED),
    TYPE(uint16_t, u16, MPI_UINT16_T, UNSIGNED),
    TYPE(int32_t, i32, MPI_INT32_T, SIGNED),
    TYPE(uint64_t, u64, MPI_UINT64_T, UNSIGNED),
    TYPE(float, float, MPI_FLOAT, FLOATING),
    TYPE(double, double, MPI_DOUBLE, FLOATING),
    TYPE(long double, ldouble, MPI_LONG_DOUBLE, FLOATING),
    TYPE(unsigned char, uchar, MPI_BYTE, BYTES),
};
#define NTYPES ((int)(sizeof types / sizeof types[0]))

enum opk { SUM, PROD, MAX, MIN, LAND, LOR, LXOR, BAND, BOR, BXOR, NOPS };
static const char *op_names[NOPS] = {"SUM", "PROD", "MAX", "MIN", "LAND", "LOR", "LXOR", "BAND", "BOR", "BXOR"};

static MPI_Op mpi_op(enum opk op) {
    switch (op) {
    case SUM: return MPI_SUM;
    case PROD: return MPI_PROD;
    case MAX: return MPI_MAX;
    case MIN: return MPI_MIN;
    case LAND: return MPI_LAND;
    case LOR: return MPI_LOR;
    case LXOR: return MPI_LXOR;
    case BAND: return MPI_BAND;
    case BOR: return MPI_BOR;
    default: return MPI_BXOR;
    }
}

/* Which ops the standard defines on which class of type. */
static bool defined_on(enum opk op, enum kind kind) {
    if (kind == BYTES) return op == BAND || op == BOR || op == BXOR;
    if (kind == FLOATING) return op <= MIN;
    return true;
}

/* Rank `rank`'s element i for op: small enough that no result overflows a
 * signed char, signed only where the type is. */
static long input(enum opk op, enum kind kind, int rank, int i) {
    switch (op) {
    case SUM:
    case MAX:
    case MIN: return kind == SIGNED || kind == FLOATING ? (rank * 7 + i * 3) % 11 - 5 : (rank * 7 + i * 3) % 11;
    case PROD: return (rank + i) % 4 == 0 ? 2 : 1;
    case LAND:
    case LOR:
    case LXOR: return (rank + 2 * i) % 3 != 0;
    default: return (rank * 37 + i * 11) & 0x7f;
    }
}

/* The reduction of ranks first..last's element i. */
static long reference(enum opk op, enum kind kind, int first, int last, int i) {
    long acc = input(op, kind, first, i);
    for (int r = first + 1; r <= last; ++r) {
        long v = input(op, kind, r, i);
        switch (op) {
        case SUM: acc += v; break;
        case PROD: acc *= v; break;
        case MAX: acc = v > acc ? v : acc; break;
        case MIN: acc = v < acc ? v : acc; break;
        case LAND: acc = acc && v; break;
        case LOR: acc = acc || v; break;
        case LXOR: acc = !acc != !v; break;
        case BAND: acc &= v; break;
        case BOR: acc |= v; break;
        default: acc ^= v; break;
        }
    }
    return acc;
}

static int rank, size;

static void fill(const struct type_info *t, void *buf, int n, enum opk op, int offset) {
    for (int i = 0; i < n; ++i) t->set(buf, i, (double)input(op, t->kind, rank, offset + i));
}

/* Elements [0,n) of buf must equal the reduction of ranks first..last at
 * global indices offset + i. */
static void expect(const struct type_info *t, const void *buf, int n, enum opk op, int first, int last, int offset,
                   const char *what) {
    for (int i = 0; i < n; ++i) {
        double want = (double)reference(op, t->kind, first, last, offset + i);
        double got = t->get(buf, i);
        if (op == LAND || op == LOR || op == LXOR) got = got != 0;
        CHECK(got == want, "%s %s %s n=%d element %d: got %g, want %g (ranks %d..%d)", what, t->name, op_names[op], n,
              i, got, want, first, last);
    }
}

static void *alloc(const struct type_info *t, int n) {
    return calloc((size_t)(n > 0 ? n : 1), t->size);
}

static void test_one(const struct type_info *t, enum opk op, int n, bool nonblocking) {
    MPI_Op mop = mpi_op(op);
    void *in = alloc(t, n), *out = alloc(t, n);
    MPI_Request req;
    fill(t, in, n, op, 0);

    /* Reduce to the first and the last rank, then in place at the root. */
    for (int root = 0; root < size; root += (size > 1 ? size - 1 : 1)) {
        memset(out, 0, t->size * (size_t)(n > 0 ? n : 1));
        if (nonblocking) {
            CHECK_MPI(MPI_Ireduce(in, out, n, t->type, mop, root, MPI_COMM_WORLD, &req));
            CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
        } else {
            CHECK_MPI(MPI_Reduce(in, out, n, t->type, mop, root, MPI_COMM_WORLD));
        }
        if (rank == root) expect(t, out, n, op, 0, size - 1, 0, "Reduce");
        if (rank == root) fill(t, out, n, op, 0);
        CHECK_MPI(MPI_Reduce(rank == root ? MPI_IN_PLACE : in, out, n, t->type, mop, root, MPI_COMM_WORLD));
        if (rank == root) expect(t, out, n, op, 0, size - 1, 0, "Reduce(IN_PLACE)");
    }

    if (nonblocking) {
        CHECK_MPI(MPI_Iallreduce(in, out, n, t->type, mop, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        CHECK_MPI(MPI_Allreduce(in, out, n, t->type, mop, MPI_COMM_WORLD));
    }
    expect(t, out, n, op, 0, size - 1, 0, "Allreduce");
    fill(t, out, n, op, 0);
    CHECK_MPI(MPI_Allreduce(MPI_IN_PLACE, out, n, t->type, mop, MPI_COMM_WORLD));
    expect(t, out, n, op, 0, size - 1, 0, "Allreduce(IN_PLACE)");

    if (nonblocking) {
        CHECK_MPI(MPI_Iscan(in, out, n, t->type, mop, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        CHECK_MPI(MPI_Scan(in, out, n, t->type, mop, MPI_COMM_WORLD));
    }
    expect(t, out, n, op, 0, rank, 0, "Scan");
    fill(t, out, n, op, 0);
    CHECK_MPI(MPI_Scan(MPI_IN_PLACE, out, n, t->type, mop, MPI_COMM_WORLD));
    expect(t, out, n, op, 0, rank, 0, "Scan(IN_PLACE)");

    if (nonblocking) {
        CHECK_MPI(MPI_Iexscan(in, out, n, t->type, mop, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        CHECK_MPI(MPI_Exscan(in, out, n, t->type, mop, MPI_COMM_WORLD));
    }
    if (rank > 0) expect(t, out, n, op, 0, rank - 1, 0, "Exscan");
    fill(t, out, n, op, 0);
    CHECK_MPI(MPI_Exscan(MPI_IN_PLACE, out, n, t->type, mop, MPI_COMM_WORLD));
    if (rank > 0) expect(t, out, n, op, 0, rank - 1, 0, "Exscan(IN_PLACE)");

    /* Reduce_scatter_block: n elements per rank out of n * size. */
    void *all = alloc(t, n * size), *mine = alloc(t, n);
    fill(t, all, n * size, op, 0);
    if (nonblocking) {
        CHECK_MPI(MPI_Ireduce_scatter_block(all, mine, n, t->type, mop, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        CHECK_MPI(MPI_Reduce_scatter_block(all, mine, n, t->type, mop, MPI_COMM_WORLD));
    }
    expect(t, mine, n, op, 0, size - 1, rank * n, "Reduce_scatter_block");
    CHECK_MPI(MPI_Reduce_scatter_block(MPI_IN_PLACE, all, n, t->type, mop, MPI_COMM_WORLD));
    expect(t, all, n, op, 0, size - 1, rank * n, "Reduce_scatter_block(IN_PLACE)");

    /* Reduce_scatter with uneven counts: rank r gets n + r % 3 elements
     * (zero-length blocks too when n is 0). */
    int *counts = malloc(sizeof(int) * (size_t)size), total = 0, offset = 0;
    for (int r = 0; r < size; ++r) {
        counts[r] = n > 0 ? n + r % 3 : (r % 2);
        if (r < rank) offset += counts[r];
        total += counts[r];
    }
    void *vin = alloc(t, total), *vout = alloc(t, counts[rank]);
    fill(t, vin, total, op, 0);
    if (nonblocking) {
        CHECK_MPI(MPI_Ireduce_scatter(vin, vout, counts, t->type, mop, MPI_COMM_WORLD, &req));
        CHECK_MPI(MPI_Wait(&req, MPI_STATUS_IGNORE));
    } else {
        CHECK_MPI(MPI_Reduce_scatter(vin, vout, counts, t->type, mop, MPI_COMM_WORLD));
    }
    expect(t, vout, counts[rank], op, 0, size - 1, offset, "Reduce_scatter");
    CHECK_MPI(MPI_Reduce_scatter(MPI_IN_PLACE, vin, counts, t->type, mop, MPI_COMM_WORLD));
    expect(t, vin, counts[rank], op, 0, size - 1, offset, "Reduce_scatter(IN_PLACE)");

    free(counts);
    free(vin);
    free(vout);
    free(all);
    free(mine);
    free(in);
    free(out);
}

/* MAXLOC and MINLOC on the pair types; ties go to the lower index. */
struct int_pair {
    int v, i;
};
struct double_int {
    double v;
    int i;
};

static void test_loc(void) {
    enum { N = 5 };
    struct int_pair in2[N], out2[N];
    struct double_int ind[N], outd[N];
    for (int i = 0; i < N; ++i) {
        in2[i].v = (rank * 3 + i) % 4;
        in2[i].i = rank;
        ind[i].v = (double)((rank * 5 + i) % 3);
        ind[i].i = rank;
    }
    for (int pass = 0; pass < 2; ++pass) {
        MPI_Op op = pass == 0 ? MPI_MAXLOC : MPI_MINLOC;
        CHECK_MPI(MPI_Allreduce(in2, out2, N, MPI_2INT, op, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Allreduce(ind, outd, N, MPI_DOUBLE_INT, op, MPI_COMM_WORLD));
        for (int i = 0; i < N; ++i) {
            int best = (0 * 3 + i) % 4, at = 0;
            double bestd = (double)((0 * 5 + i) % 3);
            int atd = 0;
            for (int r = 1; r < size; ++r) {
                int v = (r * 3 + i) % 4;
                double d = (double)((r * 5 + i) % 3);
                if (pass == 0 ? v > best : v < best) best = v, at = r;
                if (pass == 0 ? d > bestd : d < bestd) bestd = d, atd = r;
            }
            CHECK(out2[i].v == best && out2[i].i == at, "%s MPI_2INT element %d: got (%d,%d), want (%d,%d)",
                  pass ? "MINLOC" : "MAXLOC", i, out2[i].v, out2[i].i, best, at);
            CHECK(outd[i].v == bestd && outd[i].i == atd, "%s MPI_DOUBLE_INT element %d: got (%g,%d), want (%g,%d)",
                  pass ? "MINLOC" : "MAXLOC", i, outd[i].v, outd[i].i, bestd, atd);
        }
    }
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    static const int sizes[] = {0, 1, 7, 300};
    for (int t = 0; t < NTYPES; ++t)
        for (int op = 0; op < NOPS; ++op) {
            if (!defined_on((enum opk)op, types[t].kind)) continue;
            for (int s = 0; s < (int)(sizeof sizes / sizeof sizes[0]); ++s)
                test_one(&types[t], (enum opk)op, sizes[s], false);
            test_one(&types[t], (enum opk)op, 7, true);
        }
    /* Long vectors take the bandwidth algorithms (ring, pipeline). */
    test_one(&types[4], SUM, 40000, false);  /* MPI_INT */
    test_one(&types[15], MAX, 20000, false); /* MPI_DOUBLE */
    test_one(&types[15], SUM, 20000, true);
    test_loc();

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) printf("reduce_ops: %d ranks OK\n", size);
    MPI_Finalize();
    return 0;
}
