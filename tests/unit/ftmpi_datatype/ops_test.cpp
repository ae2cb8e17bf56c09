// Reduction operations: which (op, type) pairs are defined, the results of
// each predefined op, ops on non-contiguous derived types (only the data
// changes, holes stay), MINLOC/MAXLOC on padded pair types, user ops.
#include <doctest/doctest.h>

#include "internal/op.hpp"
#include "op.hpp"
#include "predefined.hpp"
#include "type.hpp"

#include <climits>
#include <complex>
#include <cstddef>

using namespace ftmpi;
using dt::Type;

namespace {
Type *const INT = &ftmpi_dt_int.object;
}

TEST_CASE("ops are defined on exactly the standard's type classes") {
    CHECK(op::valid(MPI_SUM, MPI_INT));
    CHECK(op::valid(MPI_SUM, MPI_C_DOUBLE_COMPLEX));
    CHECK(op::valid(MPI_SUM, MPI_INT64_T));
    CHECK(op::valid(MPI_SUM, MPI_AINT));
    CHECK_FALSE(op::valid(MPI_SUM, MPI_CHAR));  // MPI_CHAR is text, not a C integer
    CHECK_FALSE(op::valid(MPI_SUM, MPI_C_BOOL));
    CHECK_FALSE(op::valid(MPI_SUM, MPI_BYTE));
    CHECK_FALSE(op::valid(MPI_SUM, MPI_DOUBLE_INT));
    CHECK(op::valid(MPI_MAX, MPI_LONG_DOUBLE));
    CHECK_FALSE(op::valid(MPI_MAX, MPI_C_FLOAT_COMPLEX));
    CHECK(op::valid(MPI_LAND, MPI_C_BOOL));
    CHECK(op::valid(MPI_LXOR, MPI_UNSIGNED));
    CHECK_FALSE(op::valid(MPI_LAND, MPI_FLOAT));
    CHECK(op::valid(MPI_BAND, MPI_BYTE));
    CHECK_FALSE(op::valid(MPI_BOR, MPI_DOUBLE));
    CHECK(op::valid(MPI_MAXLOC, MPI_2INT));
    CHECK(op::valid(MPI_MINLOC, MPI_LONG_DOUBLE_INT));
    CHECK_FALSE(op::valid(MPI_MINLOC, MPI_INT));
    CHECK(op::valid(MPI_REPLACE, MPI_CHAR));
    // A mixed struct has no kind: no predefined op applies.
    const int bl[] = {1, 1};
    const MPI_Aint disp[] = {0, 8};
    Type *types[] = {INT, &ftmpi_dt_double.object};
    Type *mixed = dt::make_struct(bl, disp, types);
    CHECK_FALSE(op::valid(MPI_SUM, mixed));
    int a[4] = {}, b[4] = {};
    CHECK(op::apply(MPI_SUM, a, b, 1, mixed) == MPI_ERR_OP);
    CHECK(op::apply(MPI_SUM, a, b, 1, MPI_CHAR) == MPI_ERR_OP);
    dt::release(mixed);
}

TEST_CASE("arithmetic, bitwise and logical results") {
    int a[4] = {1, -2, 3, INT_MAX}, b[4] = {10, 20, -30, 2};
    REQUIRE(op::apply(MPI_SUM, a, b, 4, MPI_INT) == MPI_SUCCESS);
    CHECK(b[0] == 11);
    CHECK(b[1] == 18);
    CHECK(b[2] == -27);
    CHECK(b[3] == INT_MIN + 1);  // wraps, no undefined behaviour

    short s1[2] = {300, -7}, s2[2] = {300, 3};
    REQUIRE(op::apply(MPI_PROD, s1, s2, 2, MPI_SHORT) == MPI_SUCCESS);
    CHECK(s2[0] == static_cast<short>(90000));
    CHECK(s2[1] == -21);

    double d1[3] = {1.5, -2, 7}, d2[3] = {1, 5, 7.5};
    REQUIRE(op::apply(MPI_MAX, d1, d2, 3, MPI_DOUBLE) == MPI_SUCCESS);
    CHECK(d2[0] == 1.5);
    CHECK(d2[1] == 5);
    CHECK(d2[2] == 7.5);
    double m1[1] = {-1}, m2[1] = {2};
    REQUIRE(op::apply(MPI_MIN, m1, m2, 1, MPI_DOUBLE) == MPI_SUCCESS);
    CHECK(m2[0] == -1);

    unsigned u1[2] = {0xF0F0, 0xFF}, u2[2] = {0x0FF0, 0x0F};
    unsigned band[2] = {u2[0], u2[1]}, bor[2] = {u2[0], u2[1]}, bxor[2] = {u2[0], u2[1]};
    op::apply(MPI_BAND, u1, band, 2, MPI_UNSIGNED);
    op::apply(MPI_BOR, u1, bor, 2, MPI_UNSIGNED);
    op::apply(MPI_BXOR, u1, bxor, 2, MPI_UNSIGNED);
    CHECK(band[0] == 0x00F0);
    CHECK(bor[0] == 0xFFF0);
    CHECK(bxor[1] == 0xF0);

    bool l1[4] = {true, true, false, false}, l2[4] = {true, false, true, false};
    bool land[4], lor[4], lxor[4];
    std::copy(l2, l2 + 4, land);
    std::copy(l2, l2 + 4, lor);
    std::copy(l2, l2 + 4, lxor);
    op::apply(MPI_LAND, l1, land, 4, MPI_C_BOOL);
    op::apply(MPI_LOR, l1, lor, 4, MPI_C_BOOL);
    op::apply(MPI_LXOR, l1, lxor, 4, MPI_C_BOOL);
    CHECK(land[0]);
    CHECK_FALSE(land[1]);
    CHECK(lor[2]);
    CHECK_FALSE(lor[3]);
    CHECK_FALSE(lxor[0]);
    CHECK(lxor[1]);

    int i1[2] = {5, 0}, i2[2] = {7, 7};
    op::apply(MPI_LAND, i1, i2, 2, MPI_INT);
    CHECK(i2[0] == 1);
    CHECK(i2[1] == 0);

    unsigned char y1[2] = {0x0F, 0xAA}, y2[2] = {0xFF, 0x0F};
    op::apply(MPI_BAND, y1, y2, 2, MPI_BYTE);
    CHECK(y2[0] == 0x0F);
    CHECK(y2[1] == 0x0A);

    std::complex<double> c1[1] = {{1, 2}}, c2[1] = {{3, 4}};
    REQUIRE(op::apply(MPI_PROD, c1, c2, 1, MPI_C_DOUBLE_COMPLEX) == MPI_SUCCESS);
    CHECK(c2[0] == std::complex<double>(-5, 10));
}

TEST_CASE("MAXLOC and MINLOC on padded pair types; ties keep the smaller index") {
    struct SI {
        short v;
        int i;
    };
    SI a[3] = {{5, 1}, {2, 9}, {4, 3}}, b[3] = {{5, 0}, {3, 2}, {4, 7}};
    REQUIRE(op::apply(MPI_MAXLOC, a, b, 3, MPI_SHORT_INT) == MPI_SUCCESS);
    CHECK(b[0].v == 5);
    CHECK(b[0].i == 0);
    CHECK(b[1].v == 3);
    CHECK(b[1].i == 2);
    CHECK(b[2].i == 3);

    struct DI {
        double v;
        int i;
    };
    DI x[2] = {{1.0, 4}, {-3.0, 1}}, y[2] = {{2.0, 5}, {-3.0, 0}};
    REQUIRE(op::apply(MPI_MINLOC, x, y, 2, MPI_DOUBLE_INT) == MPI_SUCCESS);
    CHECK(y[0].v == 1.0);
    CHECK(y[0].i == 4);
    CHECK(y[1].i == 0);

    // A vector of DOUBLE_INT (every other pair): goes through the packed path.
    Type *v = dt::make_vector(2, 1, 2, &ftmpi_dt_double_int.object);
    dt::commit(v);
    DI p[4] = {{9, 1}, {100, 100}, {0, 2}, {100, 100}};
    DI q[4] = {{1, 7}, {-1, -1}, {0, 1}, {-1, -1}};
    REQUIRE(op::apply(MPI_MAXLOC, p, q, 1, v) == MPI_SUCCESS);
    CHECK(q[0].v == 9);
    CHECK(q[0].i == 1);
    CHECK(q[2].i == 1);
    CHECK(q[1].v == -1);  // the holes are untouched
    CHECK(q[3].i == -1);
    dt::release(v);
}

TEST_CASE("ops on a strided derived type change only its elements") {
    Type *v = dt::make_vector(3, 1, 2, INT);
    dt::commit(v);
    int a[6] = {1, 100, 2, 100, 3, 100}, b[6] = {10, -1, 20, -1, 30, -1};
    REQUIRE(op::apply(MPI_SUM, a, b, 1, v) == MPI_SUCCESS);
    CHECK(b[0] == 11);
    CHECK(b[1] == -1);
    CHECK(b[2] == 22);
    CHECK(b[4] == 33);
    CHECK(b[5] == -1);
    dt::release(v);

    // A contiguous derived type runs in place.
    Type *c = dt::make_contiguous(3, &ftmpi_dt_float.object);
    dt::commit(c);
    float f1[6] = {1, 2, 3, 4, 5, 6}, f2[6] = {1, 1, 1, 1, 1, 1};
    REQUIRE(op::apply(MPI_PROD, f1, f2, 2, c) == MPI_SUCCESS);
    CHECK(f2[5] == 6);
    dt::release(c);
}

TEST_CASE("REPLACE copies, NO_OP leaves inout, on any type") {
    int a[2] = {1, 2}, b[2] = {3, 4};
    op::apply(MPI_NO_OP, a, b, 2, MPI_INT);
    CHECK(b[1] == 4);
    op::apply(MPI_REPLACE, a, b, 2, MPI_INT);
    CHECK(b[1] == 2);
    // A mixed struct with a hole: only its data is replaced.
    struct S {
        int i;
        int hole;
        double d;
    };
    const int bl[] = {1, 1};
    const MPI_Aint disp[] = {offsetof(S, i), offsetof(S, d)};
    Type *types[] = {INT, &ftmpi_dt_double.object};
    Type *mixed = dt::make_struct(bl, disp, types);
    dt::commit(mixed);
    S x[2] = {{1, 7, 1.5}, {2, 7, 2.5}}, y[2] = {{0, -1, 0}, {0, -1, 0}};
    CHECK(op::valid(MPI_REPLACE, mixed));
    REQUIRE(op::apply(MPI_REPLACE, x, y, 2, mixed) == MPI_SUCCESS);
    CHECK(y[1].i == 2);
    CHECK(y[1].d == 2.5);
    CHECK(y[1].hole == -1);
    CHECK(op::apply(MPI_NO_OP, x, y, 2, mixed) == MPI_SUCCESS);
    dt::release(mixed);
}

namespace {
MPI_Datatype seen_type = nullptr;
int seen_len = -1;
void concat_digits(void *in, void *inout, int *len, MPI_Datatype *type) {
    seen_type = *type;
    seen_len = *len;
    auto *a = static_cast<int *>(in);
    auto *b = static_cast<int *>(inout);
    for (int i = 0; i < *len; ++i) b[i] = a[i] * 10 + b[i];  // not commutative
}
}  // namespace

TEST_CASE("user ops get the user's datatype and count; commute flag kept") {
    ftmpi_op_s user;
    user.user = concat_digits;
    user.commute = false;
    Type *pair = dt::make_contiguous(2, INT);
    int a[4] = {1, 2, 3, 4}, b[4] = {5, 6, 7, 8};
    REQUIRE(op::apply(&user, a, b, 2, pair) == MPI_SUCCESS);
    CHECK(seen_type == pair);
    CHECK(seen_len == 2);
    CHECK(b[0] == 15);
    CHECK_FALSE(op::commutative(&user));
    CHECK(op::commutative(MPI_SUM));
    CHECK(op::valid(&user, pair));
    dt::release(pair);
}
