/* The Fortran named datatypes used from C (MPI_INTEGER, MPI_REAL, …,
 * MPI_2REAL, MPI_INTEGERn/REALn/COMPLEXn), MPI_Type_create_f90_* and
 * MPI_Type_match_size, the MPI_CXX_* types: sizes, names, reductions the
 * standard allows on them (and MPI_ERR_OP where it does not). */
#include "support/check.h"

#include <complex.h>
#include <stdbool.h>
#include <string.h>

static void sizes_and_names(void) {
    struct {
        MPI_Datatype type;
        int size;
        const char *name;
    } expected[] = {
        {MPI_INTEGER, 4, "MPI_INTEGER"},
        {MPI_REAL, 4, "MPI_REAL"},
        {MPI_DOUBLE_PRECISION, 8, "MPI_DOUBLE_PRECISION"},
        {MPI_COMPLEX, 8, "MPI_COMPLEX"},
        {MPI_DOUBLE_COMPLEX, 16, "MPI_DOUBLE_COMPLEX"},
        {MPI_LOGICAL, 4, "MPI_LOGICAL"},
        {MPI_CHARACTER, 1, "MPI_CHARACTER"},
        {MPI_2INTEGER, 8, "MPI_2INTEGER"},
        {MPI_2REAL, 8, "MPI_2REAL"},
        {MPI_2DOUBLE_PRECISION, 16, "MPI_2DOUBLE_PRECISION"},
        {MPI_INTEGER1, 1, "MPI_INTEGER1"},
        {MPI_INTEGER2, 2, "MPI_INTEGER2"},
        {MPI_INTEGER4, 4, "MPI_INTEGER4"},
        {MPI_INTEGER8, 8, "MPI_INTEGER8"},
        {MPI_INTEGER16, 16, "MPI_INTEGER16"},
        {MPI_REAL2, 2, "MPI_REAL2"},
        {MPI_REAL4, 4, "MPI_REAL4"},
        {MPI_REAL8, 8, "MPI_REAL8"},
        {MPI_REAL16, 16, "MPI_REAL16"},
        {MPI_COMPLEX8, 8, "MPI_COMPLEX8"},
        {MPI_COMPLEX16, 16, "MPI_COMPLEX16"},
        {MPI_COMPLEX32, 32, "MPI_COMPLEX32"},
        {MPI_CXX_BOOL, (int)sizeof(bool), "MPI_CXX_BOOL"},
        {MPI_CXX_FLOAT_COMPLEX, 8, "MPI_CXX_FLOAT_COMPLEX"},
        {MPI_CXX_DOUBLE_COMPLEX, 16, "MPI_CXX_DOUBLE_COMPLEX"},
        {MPI_CXX_LONG_DOUBLE_COMPLEX, (int)sizeof(long double _Complex), "MPI_CXX_LONG_DOUBLE_COMPLEX"},
        {MPI_C_COMPLEX, 8, NULL},
        {MPI_C_DOUBLE_COMPLEX, 16, "MPI_C_DOUBLE_COMPLEX"},
    };
    for (size_t i = 0; i < sizeof expected / sizeof expected[0]; ++i) {
        int size = -1, len = 0;
        char name[MPI_MAX_OBJECT_NAME];
        CHECK_MPI(MPI_Type_size(expected[i].type, &size));
        CHECK(size == expected[i].size, "type %zu: size %d, expected %d", i, size, expected[i].size);
        if (!expected[i].name) continue;
        CHECK_MPI(MPI_Type_get_name(expected[i].type, name, &len));
        CHECK(strcmp(name, expected[i].name) == 0, "name '%s', expected '%s'", name, expected[i].name);
    }
}

static int type_size(MPI_Datatype t) {
    int size = -1;
    MPI_Type_size(t, &size);
    return size;
}

static void f90_and_match(void) {
    MPI_Datatype t;
    /* The f90 types have the data of the named type of that kind (their
     * envelopes are checked in datatype_findings.c). */
    CHECK_MPI(MPI_Type_create_f90_integer(9, &t));
    CHECK(type_size(t) == 4, "f90_integer(9)");
    CHECK_MPI(MPI_Type_create_f90_integer(15, &t));
    CHECK(type_size(t) == 8, "f90_integer(15)");
    CHECK_MPI(MPI_Type_create_f90_real(6, MPI_UNDEFINED, &t));
    CHECK(type_size(t) == 4, "f90_real(6, -)");
    CHECK_MPI(MPI_Type_create_f90_real(15, 300, &t));
    CHECK(type_size(t) == 8, "f90_real(15, 300)");
    CHECK_MPI(MPI_Type_create_f90_complex(MPI_UNDEFINED, 300, &t));
    CHECK(type_size(t) == 16, "f90_complex(-, 300)");
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 8, &t));
    CHECK(t == MPI_INTEGER8, "match_size(INTEGER, 8)");
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_REAL, 4, &t));
    CHECK(t == MPI_REAL4, "match_size(REAL, 4)");
    CHECK_MPI(MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t));
    CHECK(t == MPI_COMPLEX16, "match_size(COMPLEX, 16)");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_CLASS(MPI_Type_create_f90_integer(100, &t), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Type_match_size(MPI_TYPECLASS_REAL, 3, &t), MPI_ERR_ARG);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void reductions(int rank, int size) {
    const int n = size * (size + 1) / 2; /* sum of rank + 1 */
    int i_in = rank + 1, i_out = 0;
    CHECK_MPI(MPI_Allreduce(&i_in, &i_out, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD));
    CHECK(i_out == n, "SUM INTEGER %d", i_out);
    CHECK_MPI(MPI_Allreduce(&i_in, &i_out, 1, MPI_INTEGER, MPI_BOR, MPI_COMM_WORLD));
    long long l_in = (long long)(rank + 1) << 33, l_out = 0;
    CHECK_MPI(MPI_Allreduce(&l_in, &l_out, 1, MPI_INTEGER8, MPI_SUM, MPI_COMM_WORLD));
    CHECK(l_out == (long long)n << 33, "SUM INTEGER8");
    float f_in = 0.5f * (float)(rank + 1), f_out = 0;
    CHECK_MPI(MPI_Allreduce(&f_in, &f_out, 1, MPI_REAL, MPI_SUM, MPI_COMM_WORLD));
    CHECK(f_out == 0.5f * (float)n, "SUM REAL %f", (double)f_out);
    double d_in = (double)rank, d_out = -1;
    CHECK_MPI(MPI_Allreduce(&d_in, &d_out, 1, MPI_DOUBLE_PRECISION, MPI_MAX, MPI_COMM_WORLD));
    CHECK(d_out == (double)(size - 1), "MAX DOUBLE_PRECISION %f", d_out);
    CHECK_MPI(MPI_Allreduce(&d_in, &d_out, 1, MPI_REAL8, MPI_MIN, MPI_COMM_WORLD));
    CHECK(d_out == 0.0, "MIN REAL8 %f", d_out);
    float _Complex c_in = (float)(rank + 1) + 1.0f * I, c_out = 0;
    CHECK_MPI(MPI_Allreduce(&c_in, &c_out, 1, MPI_COMPLEX, MPI_SUM, MPI_COMM_WORLD));
    CHECK(crealf(c_out) == (float)n && cimagf(c_out) == (float)size, "SUM COMPLEX");
    double _Complex z_in = 1.0 * I, z_out = 0;
    CHECK_MPI(MPI_Allreduce(&z_in, &z_out, 1, MPI_DOUBLE_COMPLEX, MPI_PROD, MPI_COMM_WORLD));
    double _Complex want = 1.0;
    for (int i = 0; i < size; ++i) want *= I;
    CHECK(creal(z_out) == creal(want) && cimag(z_out) == cimag(want), "PROD DOUBLE_COMPLEX");
    CHECK_MPI(MPI_Allreduce(&z_in, &z_out, 1, MPI_CXX_DOUBLE_COMPLEX, MPI_SUM, MPI_COMM_WORLD));
    CHECK(cimag(z_out) == (double)size, "SUM CXX_DOUBLE_COMPLEX");
    /* Fortran LOGICAL: .TRUE. is 1 (gfortran). */
    int t_in = 1, r_in = rank == 0, b_out = -1;
    CHECK_MPI(MPI_Allreduce(&t_in, &b_out, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD));
    CHECK(b_out == 1, "LAND LOGICAL %d", b_out);
    CHECK_MPI(MPI_Allreduce(&r_in, &b_out, 1, MPI_LOGICAL, MPI_LAND, MPI_COMM_WORLD));
    CHECK(b_out == (size == 1), "LAND LOGICAL (one true) %d", b_out);
    CHECK_MPI(MPI_Allreduce(&r_in, &b_out, 1, MPI_LOGICAL, MPI_LOR, MPI_COMM_WORLD));
    CHECK(b_out == 1, "LOR LOGICAL %d", b_out);
    bool x_in = rank == 0, x_out = false;
    CHECK_MPI(MPI_Allreduce(&x_in, &x_out, 1, MPI_CXX_BOOL, MPI_LOR, MPI_COMM_WORLD));
    CHECK(x_out, "LOR CXX_BOOL");
    /* MAXLOC / MINLOC pairs. */
    float fr_in[2] = {(float)(rank % 2 ? 10 : rank), (float)rank}, fr_out[2];
    CHECK_MPI(MPI_Allreduce(fr_in, fr_out, 1, MPI_2REAL, MPI_MAXLOC, MPI_COMM_WORLD));
    const float fmax = size > 1 ? 10.0f : 0.0f, floc = size > 1 ? 1.0f : 0.0f;
    CHECK(fr_out[0] == fmax && fr_out[1] == floc, "MAXLOC 2REAL: %f at %f", (double)fr_out[0], (double)fr_out[1]);
    double dr_in[2] = {(double)(size - rank), (double)rank}, dr_out[2];
    CHECK_MPI(MPI_Allreduce(dr_in, dr_out, 1, MPI_2DOUBLE_PRECISION, MPI_MINLOC, MPI_COMM_WORLD));
    CHECK(dr_out[0] == 1.0 && dr_out[1] == (double)(size - 1), "MINLOC 2DOUBLE_PRECISION");
    int ir_in[2] = {rank * 3, rank}, ir_out[2];
    CHECK_MPI(MPI_Allreduce(ir_in, ir_out, 1, MPI_2INTEGER, MPI_MAXLOC, MPI_COMM_WORLD));
    CHECK(ir_out[0] == (size - 1) * 3 && ir_out[1] == size - 1, "MAXLOC 2INTEGER");
    /* Not allowed: arithmetic on LOGICAL, ops on CHARACTER and REAL16. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    CHECK_CLASS(MPI_Allreduce(&t_in, &b_out, 1, MPI_LOGICAL, MPI_SUM, MPI_COMM_WORLD), MPI_ERR_OP);
    char ch = 'a', ch_out;
    CHECK_CLASS(MPI_Allreduce(&ch, &ch_out, 1, MPI_CHARACTER, MPI_MAX, MPI_COMM_WORLD), MPI_ERR_OP);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void movement(int rank, int size) {
    /* Types without predefined ops still move data. */
    unsigned char quad[2][16], got[16];
    for (int i = 0; i < 16; ++i) quad[0][i] = (unsigned char)(i * 7 + 1);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;
    CHECK_MPI(
        MPI_Sendrecv(quad[0], 1, MPI_REAL16, next, 3, got, 1, MPI_REAL16, prev, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
    CHECK(memcmp(got, quad[0], 16) == 0, "REAL16 moved wrong");
    char text[6] = "hello", in[6] = {0};
    CHECK_MPI(MPI_Sendrecv(text, 6, MPI_CHARACTER, next, 4, in, 6, MPI_CHARACTER, prev, 4, MPI_COMM_WORLD,
                           MPI_STATUS_IGNORE));
    CHECK(strcmp(in, "hello") == 0, "CHARACTER moved wrong");
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    sizes_and_names();
    f90_and_match();
    reductions(rank, size);
    movement(rank, size);
    MPI_Finalize();
    return 0;
}
