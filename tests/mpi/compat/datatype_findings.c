/* What MPICH's test suite (test/mpi) found wrong in datatypes and
 * topologies, each checked the way it checks it:
 *   - datatype/pack_external: external32 has the standard's fixed sizes
 *     (long 4 bytes, wchar_t 2, long double 16 as IEEE binary128), so
 *     MPI_Pack_external_size, _Pack_external and _Unpack_external agree
 *     on sizes and bytes, and values come back (sign-extended);
 *   - datatype/createf90types: MPI_Type_create_f90_* types report
 *     MPI_COMBINER_F90_* with the (p, r) asked for;
 *   - datatype/struct_no_real_types: the type map { (LB,10) } has lb 10,
 *     ub 0, extent -10;
 *   - topo/dims5: MPI_Dims_create's choice among the equally spread
 *     factorisations is the one with the largest smallest factor. */
#include "support/check.h"

#include <float.h>
#include <math.h>
#include <string.h>
#include <wchar.h>

static void external32_sizes(void) {
    struct {
        MPI_Datatype type;
        MPI_Aint size;
        const char *name;
    } table[] = {
        {MPI_CHAR, 1, "CHAR"},
        {MPI_WCHAR, 2, "WCHAR"},
        {MPI_SHORT, 2, "SHORT"},
        {MPI_INT, 4, "INT"},
        {MPI_LONG, 4, "LONG"},
        {MPI_UNSIGNED_LONG, 4, "UNSIGNED_LONG"},
        {MPI_LONG_LONG_INT, 8, "LONG_LONG_INT"},
        {MPI_FLOAT, 4, "FLOAT"},
        {MPI_DOUBLE, 8, "DOUBLE"},
        {MPI_LONG_DOUBLE, 16, "LONG_DOUBLE"},
        {MPI_C_BOOL, 1, "C_BOOL"},
        {MPI_AINT, 8, "AINT"},
        {MPI_C_LONG_DOUBLE_COMPLEX, 32, "C_LONG_DOUBLE_COMPLEX"},
        {MPI_LOGICAL, 4, "LOGICAL"},
        {MPI_DOUBLE_COMPLEX, 16, "DOUBLE_COMPLEX"},
        {MPI_LONG_INT, 8, "LONG_INT"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i) {
        MPI_Aint size = -1;
        CHECK_MPI(MPI_Pack_external_size("external32", 3, table[i].type, &size));
        CHECK(size == 3 * table[i].size, "external32 size of 3 MPI_%s: %ld, expected %ld", table[i].name, (long)size,
              (long)(3 * table[i].size));
    }
}

static void external32_long(void) {
    long in[2] = {1, -2}, out[2] = {0, 0};
    const unsigned char expected[8] = {0, 0, 0, 1, 0xff, 0xff, 0xff, 0xfe};
    unsigned char buf[32];
    MPI_Aint pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", in, 2, MPI_LONG, buf, sizeof buf, &pos));
    CHECK(pos == 8, "MPI_Pack_external of 2 MPI_LONG: position %ld, expected 8", (long)pos);
    CHECK(memcmp(buf, expected, 8) == 0, "MPI_LONG {1, -2} in external32: %02x%02x%02x%02x %02x%02x%02x%02x", buf[0],
          buf[1], buf[2], buf[3], buf[4], buf[5], buf[6], buf[7]);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 8, &pos, out, 2, MPI_LONG));
    CHECK(pos == 8 && out[0] == 1 && out[1] == -2, "MPI_LONG back: %ld %ld (position %ld)", out[0], out[1], (long)pos);

    unsigned long u = 0xfffffffeUL, uback = 0;
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", &u, 1, MPI_UNSIGNED_LONG, buf, sizeof buf, &pos));
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 4, &pos, &uback, 1, MPI_UNSIGNED_LONG));
    CHECK(uback == u, "MPI_UNSIGNED_LONG 0xfffffffe back as %lx (not sign-extended)", uback);

    wchar_t w[2] = {L'A', 0x20ac}, wback[2] = {0, 0};
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", w, 2, MPI_WCHAR, buf, sizeof buf, &pos));
    CHECK(pos == 4 && buf[0] == 0 && buf[1] == 'A' && buf[2] == 0x20 && buf[3] == 0xac, "MPI_WCHAR in external32");
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 4, &pos, wback, 2, MPI_WCHAR));
    CHECK(wback[0] == w[0] && wback[1] == w[1], "MPI_WCHAR back");

    /* A struct mixing long and int: the stream is 4 + 4 bytes, not 8 + 4. */
    struct {
        long l;
        int i;
    } s = {-3, 7}, sback = {0, 0};
    int bl[] = {1, 1};
    MPI_Aint disp[] = {0, sizeof(long)};
    MPI_Datatype types[] = {MPI_LONG, MPI_INT}, t;
    CHECK_MPI(MPI_Type_create_struct(2, bl, disp, types, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    MPI_Aint size = 0;
    CHECK_MPI(MPI_Pack_external_size("external32", 1, t, &size));
    CHECK(size == 8, "external32 size of {long, int}: %ld", (long)size);
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", &s, 1, t, buf, sizeof buf, &pos));
    CHECK(pos == 8 && buf[3] == 0xfd && buf[7] == 7, "{long, int} in external32");
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 8, &pos, &sback, 1, t));
    CHECK(sback.l == -3 && sback.i == 7, "{long, int} back: %ld %d", sback.l, sback.i);
    CHECK_MPI(MPI_Type_free(&t));
}

static void external32_long_double(void) {
    /* 1.0 and 2.0 as big-endian binary128 (the bytes MPICH's test expects). */
    long double in[2] = {1.0L, 2.0L};
    unsigned char buf[64], expected[32] = {0};
    expected[0] = 0x3f;
    expected[1] = 0xff;
    expected[16] = 0x40;
    MPI_Aint pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", in, 2, MPI_LONG_DOUBLE, buf, sizeof buf, &pos));
    CHECK(pos == 32 && memcmp(buf, expected, 32) == 0, "MPI_LONG_DOUBLE {1, 2} in external32 (position %ld)",
          (long)pos);
    /* Values that take every path of the conversion come back exactly. */
    long double values[] = {0.0L,
                            -0.0L,
                            1.0L / 3.0L,
                            -1e300L * 1e300L,
                            LDBL_MAX,
                            LDBL_MIN,
                            LDBL_MIN / 1024.0L,
                            LDBL_TRUE_MIN,
                            (long double)INFINITY,
                            -(long double)INFINITY};
    enum { N = sizeof values / sizeof values[0] };
    long double back[N];
    unsigned char big[N * 16];
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", values, N, MPI_LONG_DOUBLE, big, sizeof big, &pos));
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", big, sizeof big, &pos, back, N, MPI_LONG_DOUBLE));
    for (int i = 0; i < N; ++i)
        CHECK(back[i] == values[i] && signbit(back[i]) == signbit(values[i]), "long double %d: %Lg back as %Lg", i,
              values[i], back[i]);
    long double nan_in = (long double)NAN, nan_back = 0;
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", &nan_in, 1, MPI_LONG_DOUBLE, buf, sizeof buf, &pos));
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 16, &pos, &nan_back, 1, MPI_LONG_DOUBLE));
    CHECK(isnan(nan_back), "a long double NaN back as %Lg", nan_back);
}

/* A binary128 value, big-endian, from its two halves. */
static void quad_bytes(unsigned long long hi, unsigned long long lo, unsigned char out[16]) {
    for (int i = 0; i < 8; ++i) {
        out[i] = (unsigned char)(hi >> (56 - 8 * i));
        out[8 + i] = (unsigned char)(lo >> (56 - 8 * i));
    }
}

/* binary128 has 49 fraction bits more than x87: reading it back rounds to
 * nearest, ties to even, and what rounds past the largest x87 number is
 * infinity. */
static void external32_rounding(void) {
    const unsigned long long one = 0x3fff000000000000ULL, half_ulp = 1ULL << 48;
    struct {
        unsigned long long hi, lo;
        long double expected;
        const char *what;
    } cases[] = {
        {one, half_ulp, 1.0L, "1 + half an ulp (tie, to even: down)"},
        {one, half_ulp | 1, 1.0L + LDBL_EPSILON, "1 + just over half an ulp (up)"},
        {one, 3 * half_ulp, 1.0L + 2 * LDBL_EPSILON, "1 + 1.5 ulp (tie, to even: up)"},
        {0x7ffeffffffffffffULL, ~0ULL, (long double)INFINITY, "largest binary128 (past LDBL_MAX: infinity)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        unsigned char buf[16];
        long double got = 0;
        MPI_Aint pos = 0;
        quad_bytes(cases[i].hi, cases[i].lo, buf);
        CHECK_MPI(MPI_Unpack_external("external32", buf, 16, &pos, &got, 1, MPI_LONG_DOUBLE));
        CHECK(got == cases[i].expected, "%s: got %La, expected %La", cases[i].what, got, cases[i].expected);
    }
}

/* createf90types' checkType: combiner, (p, r) from get_contents, no types. */
static void f90_contents(MPI_Datatype t, int combiner, int nints, int p, int r, int size) {
    int ni = -1, na = -1, nd = -1, c = -1, ints[2] = {0, 0}, tsize = 0;
    CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &c));
    CHECK(c == combiner && ni == nints && na == 0 && nd == 0, "f90 envelope: combiner %d (expected %d), %d %d %d", c,
          combiner, ni, na, nd);
    CHECK_MPI(MPI_Type_get_contents(t, 2, 0, 0, ints, NULL, NULL));
    CHECK(ints[0] == p && (nints == 1 || ints[1] == r), "f90 contents (%d, %d), expected (%d, %d)", ints[0], ints[1], p,
          r);
    CHECK_MPI(MPI_Type_size(t, &tsize));
    CHECK(tsize == size, "f90 type size %d, expected %d", tsize, size);
}

static void f90_types(void) {
    MPI_Datatype a, b, c;
    CHECK_MPI(MPI_Type_create_f90_real(3, 10, &a));
    f90_contents(a, MPI_COMBINER_F90_REAL, 2, 3, 10, 4);
    CHECK_MPI(MPI_Type_create_f90_real(3, MPI_UNDEFINED, &b));
    f90_contents(b, MPI_COMBINER_F90_REAL, 2, 3, MPI_UNDEFINED, 4);
    CHECK(a != b, "f90_real(3, 10) and (3, UNDEFINED) are one handle: they report different (p, r)");
    CHECK_MPI(MPI_Type_create_f90_real(3, 10, &c));
    CHECK(a == c, "f90_real(3, 10) twice gave two handles");
    CHECK_MPI(MPI_Type_create_f90_complex(7, 30, &a));
    f90_contents(a, MPI_COMBINER_F90_COMPLEX, 2, 7, 30, 16);
    CHECK_MPI(MPI_Type_create_f90_integer(3, &a));
    f90_contents(a, MPI_COMBINER_F90_INTEGER, 1, 3, 0, 2);
    /* Predefined: usable for communication and reductions, never freed. */
    short s = 5, sum = 0;
    CHECK_MPI(MPI_Allreduce(&s, &sum, 1, a, MPI_SUM, MPI_COMM_SELF));
    CHECK(sum == 5, "SUM over an f90 integer type gave %d", sum);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    c = a;
    CHECK_CLASS(MPI_Type_free(&c), MPI_ERR_TYPE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void markers_only(void) {
    int len = 1, size = -1;
    MPI_Aint disp = 10, lb = 0, extent = 0;
    MPI_Datatype marker = MPI_LB, t;
    CHECK_MPI(MPI_Type_create_struct(1, &len, &disp, &marker, &t));
    CHECK_MPI(MPI_Type_size(t, &size));
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    CHECK(size == 0 && lb == 10 && extent == -10, "{ (LB,10) }: size %d, lb %ld, extent %ld; expected 0, 10, -10", size,
          (long)lb, (long)extent);
    CHECK_MPI(MPI_Type_free(&t));
    marker = MPI_UB;
    CHECK_MPI(MPI_Type_create_struct(1, &len, &disp, &marker, &t));
    CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
    CHECK(lb == 0 && extent == 10, "{ (UB,10) }: lb %ld, extent %ld; expected 0, 10", (long)lb, (long)extent);
    CHECK_MPI(MPI_Type_free(&t));
}

static void balanced_dims(void) {
    struct {
        int nnodes, ndims, expected[5];
    } cases[] = {
        {72, 2, {9, 8}},
        {5040, 3, {21, 16, 15}},
        {19152, 3, {38, 24, 21}},
        {10800, 3, {27, 20, 20}},
        {26352, 4, {61, 9, 8, 6}},
        {162432, 4, {47, 18, 16, 12}},
        {98784, 5, {14, 14, 9, 8, 7}},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        int dims[5] = {0, 0, 0, 0, 0};
        CHECK_MPI(MPI_Dims_create(cases[i].nnodes, cases[i].ndims, dims));
        CHECK(memcmp(dims, cases[i].expected, sizeof(int) * (size_t)cases[i].ndims) == 0,
              "MPI_Dims_create(%d, %d): %d x %d x %d x %d x %d", cases[i].nnodes, cases[i].ndims, dims[0], dims[1],
              dims[2], dims[3], dims[4]);
    }
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    external32_sizes();
    external32_long();
    external32_long_double();
    external32_rounding();
    f90_types();
    markers_only();
    balanced_dims();
    MPI_Finalize();
    return 0;
}
