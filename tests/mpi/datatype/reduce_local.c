/* MPI_Reduce_local with every predefined op on the type classes the
 * standard allows it on (C integer, floating point, logical, complex, byte,
 * pair types), MPI_ERR_OP on the others; a derived (strided) type; user ops,
 * commutative or not, called with the user's datatype; Op_free. One process. */
#include "support/check.h"

#include <complex.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#define N 5

/* Open MPI accepts some pairs the standard leaves undefined (SUM on
 * MPI_BYTE, MAX on MPI_CHAR) and refuses predefined ops on derived types of
 * one basic type (allowed since MPI-2.2); those checks run on libftmpi only. */
#ifdef FTMPI_VERSION_STRING
#define STRICT 1
#else
#define STRICT 0
#endif

static void integers(void) {
    const long long a[N] = {1, -2, 3, 0, 7}, b[N] = {4, 5, -6, 0, 7};
    const MPI_Op ops[] = {MPI_MAX, MPI_MIN,  MPI_SUM,  MPI_PROD, MPI_LAND,
                          MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR,  MPI_BXOR};
    for (size_t o = 0; o < sizeof ops / sizeof ops[0]; ++o) {
        long long want[N];
        for (int i = 0; i < N; ++i) {
            const long long x = a[i], y = b[i];
            const long long r[] = {x > y ? x : y, x < y ? x : y, x + y, x * y, x && y,
                                   x || y,        !x != !y,      x & y, x | y, x ^ y};
            want[i] = r[o];
        }
        /* The same values through several integer types. */
        int ia[N], ib[N];
        short sa[N], sb[N];
        int64_t la[N], lb[N];
        for (int i = 0; i < N; ++i)
            ia[i] = (int)a[i], ib[i] = (int)b[i], sa[i] = (short)a[i], sb[i] = (short)b[i], la[i] = a[i], lb[i] = b[i];
        CHECK_MPI(MPI_Reduce_local(ia, ib, N, MPI_INT, ops[o]));
        CHECK_MPI(MPI_Reduce_local(sa, sb, N, MPI_SHORT, ops[o]));
        CHECK_MPI(MPI_Reduce_local(la, lb, N, MPI_INT64_T, ops[o]));
        for (int i = 0; i < N; ++i)
            CHECK(ib[i] == want[i] && sb[i] == want[i] && lb[i] == want[i],
                  "integer op %zu element %d: %d %d %ld, want %lld", o, i, ib[i], sb[i], (long)lb[i], want[i]);
    }
}

static void floating(void) {
    double a[N] = {1.5, -2, 3, 0, 7}, b[N] = {4, 5, -6.25, 0, 7};
    double mx[N], sum[N];
    memcpy(mx, b, sizeof b);
    memcpy(sum, b, sizeof b);
    CHECK_MPI(MPI_Reduce_local(a, mx, N, MPI_DOUBLE, MPI_MAX));
    CHECK_MPI(MPI_Reduce_local(a, sum, N, MPI_DOUBLE, MPI_SUM));
    CHECK(mx[0] == 4 && mx[2] == 3 && sum[2] == -3.25, "double MAX/SUM");
    float fa[2] = {2, 3}, fb[2] = {4, 0.5f};
    CHECK_MPI(MPI_Reduce_local(fa, fb, 2, MPI_FLOAT, MPI_PROD));
    CHECK(fb[0] == 8 && fb[1] == 1.5f, "float PROD");
    long double la[1] = {2}, lb[1] = {3};
    CHECK_MPI(MPI_Reduce_local(la, lb, 1, MPI_LONG_DOUBLE, MPI_MIN));
    CHECK(lb[0] == 2, "long double MIN");
    CHECK(error_class(MPI_Reduce_local(a, b, N, MPI_DOUBLE, MPI_BAND)) == MPI_ERR_OP, "BAND on double");
    CHECK(error_class(MPI_Reduce_local(a, b, N, MPI_DOUBLE, MPI_LAND)) == MPI_ERR_OP, "LAND on double");
    CHECK(error_class(MPI_Reduce_local(a, b, N, MPI_DOUBLE, MPI_MAXLOC)) == MPI_ERR_OP, "MAXLOC on double");
}

static void logical_complex_byte(void) {
    bool ba[4] = {true, true, false, false}, bb[4] = {true, false, true, false};
    CHECK_MPI(MPI_Reduce_local(ba, bb, 4, MPI_C_BOOL, MPI_LXOR));
    CHECK(!bb[0] && bb[1] && bb[2] && !bb[3], "C_BOOL LXOR");
    CHECK(error_class(MPI_Reduce_local(ba, bb, 4, MPI_C_BOOL, MPI_SUM)) == MPI_ERR_OP, "SUM on C_BOOL");

    double complex ca[2] = {1 + 2 * I, 3}, cb[2] = {3 + 4 * I, 2 * I};
    CHECK_MPI(MPI_Reduce_local(ca, cb, 2, MPI_C_DOUBLE_COMPLEX, MPI_PROD));
    CHECK(creal(cb[0]) == -5 && cimag(cb[0]) == 10 && creal(cb[1]) == 0 && cimag(cb[1]) == 6, "complex PROD");
    CHECK(error_class(MPI_Reduce_local(ca, cb, 2, MPI_C_DOUBLE_COMPLEX, MPI_MAX)) == MPI_ERR_OP, "MAX on complex");

    unsigned char ya[2] = {0xF0, 0x0F}, yb[2] = {0xFF, 0xFF};
    CHECK_MPI(MPI_Reduce_local(ya, yb, 2, MPI_BYTE, MPI_BXOR));
    CHECK(yb[0] == 0x0F && yb[1] == 0xF0, "BYTE BXOR");
    char text[2] = {'a', 'b'}, text2[2] = {'c', 'd'};
    if (STRICT) {
        CHECK(error_class(MPI_Reduce_local(ya, yb, 2, MPI_BYTE, MPI_SUM)) == MPI_ERR_OP, "SUM on BYTE");
        CHECK(error_class(MPI_Reduce_local(text, text2, 2, MPI_CHAR, MPI_MAX)) == MPI_ERR_OP, "MAX on CHAR");
    }
}

static void pairs(void) {
    struct {
        double v;
        int i;
    } a[3] = {{1, 5}, {7, 2}, {3, 3}}, b[3] = {{1, 4}, {6, 1}, {9, 0}};
    CHECK_MPI(MPI_Reduce_local(a, b, 3, MPI_DOUBLE_INT, MPI_MAXLOC));
    CHECK(b[0].v == 1 && b[0].i == 4, "MAXLOC tie keeps the smaller index");
    CHECK(b[1].v == 7 && b[1].i == 2, "MAXLOC larger value");
    CHECK(b[2].v == 9 && b[2].i == 0, "MAXLOC keeps inout");
    struct {
        int v;
        int i;
    } c[2] = {{1, 1}, {5, 5}}, d[2] = {{2, 2}, {0, 9}};
    CHECK_MPI(MPI_Reduce_local(c, d, 2, MPI_2INT, MPI_MINLOC));
    CHECK(d[0].v == 1 && d[0].i == 1 && d[1].v == 0 && d[1].i == 9, "2INT MINLOC");
    CHECK(error_class(MPI_Reduce_local(c, d, 2, MPI_2INT, MPI_SUM)) == MPI_ERR_OP, "SUM on 2INT");
}

static void derived(void) {
    if (!STRICT) return;
    /* Every other double of 6: only the chosen ones change. */
    MPI_Datatype every_other;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &every_other));
    CHECK_MPI(MPI_Type_commit(&every_other));
    double a[6] = {1, 100, 2, 100, 3, 100}, b[6] = {10, -1, 20, -1, 30, -1};
    CHECK_MPI(MPI_Reduce_local(a, b, 1, every_other, MPI_SUM));
    CHECK(b[0] == 11 && b[2] == 22 && b[4] == 33 && b[1] == -1 && b[3] == -1 && b[5] == -1, "strided SUM");
    CHECK_MPI(MPI_Type_free(&every_other));
}

static MPI_Datatype seen;
static void affine(void *in, void *inout, int *len, MPI_Datatype *type) {
    /* (a, b) then (c, d) composes x -> c (a x + b) + d: not commutative. */
    seen = *type;
    double *x = in, *y = inout;
    for (int i = 0; i < *len; ++i) {
        const double a = x[2 * i], b = x[2 * i + 1], c = y[2 * i], d = y[2 * i + 1];
        y[2 * i] = c * a;
        y[2 * i + 1] = c * b + d;
    }
}

static void user_ops(void) {
    MPI_Op op;
    MPI_Datatype pair;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_DOUBLE, &pair));
    CHECK_MPI(MPI_Type_commit(&pair));
    CHECK_MPI(MPI_Op_create(affine, 0, &op));
    int commute = -1;
    CHECK_MPI(MPI_Op_commutative(op, &commute));
    CHECK(commute == 0, "Op_commutative of a non-commutative op: %d", commute);
    CHECK_MPI(MPI_Op_commutative(MPI_SUM, &commute));
    CHECK(commute == 1, "MPI_SUM commutes");
    double in[2] = {2, 1}, inout[2] = {3, 5};
    CHECK_MPI(MPI_Reduce_local(in, inout, 1, pair, op));
    CHECK(inout[0] == 6 && inout[1] == 8 && seen == pair, "user op result %g %g", inout[0], inout[1]);
    CHECK_MPI(MPI_Op_free(&op));
    CHECK(op == MPI_OP_NULL, "Op_free nulls the handle");
    MPI_Op sum = MPI_SUM;
    CHECK(error_class(MPI_Op_free(&sum)) == MPI_ERR_OP, "freeing MPI_SUM");
    CHECK_MPI(MPI_Type_free(&pair));
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    integers();
    floating();
    logical_complex_byte();
    pairs();
    derived();
    user_ops();
    MPI_Finalize();
    return 0;
}
