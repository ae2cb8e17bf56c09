/* MPI_Pack/MPI_Unpack round trips through every constructor; Pack_size;
 * packing into one buffer at advancing positions; the extent/size queries;
 * envelope and contents; names; bad arguments return errors under
 * MPI_ERRORS_RETURN. One process. */
#include "support/check.h"

#include <stddef.h>
#include <string.h>

#define N 240

/* Packs `count` elements of `type` from a buffer of distinct ints, unpacks
 * into a zeroed buffer, and checks the ints the type names came back and
 * nothing else was written. `want` lists the int indices in type-map order. */
static void round_trip(MPI_Datatype type, int count, const int *want, int nwant, const char *what) {
    int src[N], dst[N], packed_size, position = 0;
    for (int i = 0; i < N; ++i) src[i] = 1000 + i, dst[i] = 0;
    CHECK_MPI(MPI_Type_commit(&type));
    CHECK_MPI(MPI_Pack_size(count, type, MPI_COMM_WORLD, &packed_size));
    CHECK(packed_size == nwant * (int)sizeof(int), "%s: Pack_size %d, want %d", what, packed_size,
          nwant * (int)sizeof(int));
    char buf[N * sizeof(int)];
    CHECK_MPI(MPI_Pack(src, count, type, buf, sizeof buf, &position, MPI_COMM_WORLD));
    CHECK(position == packed_size, "%s: position %d after Pack, want %d", what, position, packed_size);
    for (int i = 0; i < nwant; ++i) {
        int v;
        memcpy(&v, buf + i * sizeof(int), sizeof v);
        CHECK(v == 1000 + want[i], "%s: packed int %d is %d, want %d", what, i, v, 1000 + want[i]);
    }
    position = 0;
    CHECK_MPI(MPI_Unpack(buf, packed_size, &position, dst, count, type, MPI_COMM_WORLD));
    CHECK(position == packed_size, "%s: position %d after Unpack", what, position);
    int written = 0;
    for (int i = 0; i < N; ++i)
        if (dst[i]) {
            CHECK(dst[i] == src[i], "%s: dst[%d] = %d", what, i, dst[i]);
            ++written;
        }
    CHECK(written <= nwant, "%s: %d ints written, type names %d", what, written, nwant);
    CHECK_MPI(MPI_Type_free(&type));
    CHECK(type == MPI_DATATYPE_NULL, "%s: Type_free did not null the handle", what);
}

static void constructors(void) {
    MPI_Datatype t;

    CHECK_MPI(MPI_Type_contiguous(5, MPI_INT, &t));
    round_trip(t, 2, (int[]){0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 10, "contiguous");

    CHECK_MPI(MPI_Type_vector(3, 2, 4, MPI_INT, &t));
    round_trip(t, 2, (int[]){0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19}, 12, "vector");

    CHECK_MPI(MPI_Type_create_hvector(3, 1, 3 * sizeof(int), MPI_INT, &t));
    round_trip(t, 1, (int[]){0, 3, 6}, 3, "hvector");

    int bl[] = {2, 1, 3}, disp[] = {10, 0, 4};
    CHECK_MPI(MPI_Type_indexed(3, bl, disp, MPI_INT, &t));
    round_trip(t, 1, (int[]){10, 11, 0, 4, 5, 6}, 6, "indexed");

    MPI_Aint hdisp[] = {10 * sizeof(int), 0, 4 * sizeof(int)};
    CHECK_MPI(MPI_Type_create_hindexed(3, bl, hdisp, MPI_INT, &t));
    round_trip(t, 1, (int[]){10, 11, 0, 4, 5, 6}, 6, "hindexed");

    CHECK_MPI(MPI_Type_create_indexed_block(3, 2, disp, MPI_INT, &t));
    round_trip(t, 1, (int[]){10, 11, 0, 1, 4, 5}, 6, "indexed_block");

    CHECK_MPI(MPI_Type_create_hindexed_block(3, 2, hdisp, MPI_INT, &t));
    round_trip(t, 1, (int[]){10, 11, 0, 1, 4, 5}, 6, "hindexed_block");

    int sbl[] = {1, 2};
    MPI_Aint sdisp[] = {3 * sizeof(int), 0};
    MPI_Datatype stypes[] = {MPI_INT, MPI_INT};
    CHECK_MPI(MPI_Type_create_struct(2, sbl, sdisp, stypes, &t));
    round_trip(t, 2, (int[]){3, 0, 1, 7, 4, 5}, 6, "struct");

    MPI_Datatype inner;
    CHECK_MPI(MPI_Type_vector(2, 1, 2, MPI_INT, &inner));
    CHECK_MPI(MPI_Type_create_resized(inner, 0, 5 * sizeof(int), &t));
    CHECK_MPI(MPI_Type_free(&inner)); /* t keeps what it needs */
    round_trip(t, 3, (int[]){0, 2, 5, 7, 10, 12}, 6, "resized");

    int sizes[] = {4, 6}, subs[] = {2, 3}, starts[] = {1, 2};
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t));
    round_trip(t, 1, (int[]){8, 9, 10, 14, 15, 16}, 6, "subarray C");
    CHECK_MPI(MPI_Type_create_subarray(2, sizes, subs, starts, MPI_ORDER_FORTRAN, MPI_INT, &t));
    round_trip(t, 1, (int[]){9, 10, 13, 14, 17, 18}, 6, "subarray Fortran");

    int gs[] = {4, 6}, ds[] = {MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC}, da[] = {MPI_DISTRIBUTE_DFLT_DARG, 2},
        ps[] = {2, 2};
    /* rank 3 = grid (1, 1): rows 2-3, column blocks starting at 2 (cols 2, 3). */
    CHECK_MPI(MPI_Type_create_darray(4, 3, 2, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t));
    round_trip(t, 1, (int[]){14, 15, 20, 21}, 4, "darray");

    CHECK_MPI(MPI_Type_dup(MPI_INT, &t));
    round_trip(t, 3, (int[]){0, 1, 2}, 3, "dup");
}

static void queries(void) {
    struct S {
        char c;
        double d;
        int i;
    };
    int bl[] = {1, 1, 1};
    MPI_Aint disp[] = {offsetof(struct S, c), offsetof(struct S, d), offsetof(struct S, i)};
    MPI_Datatype types[] = {MPI_CHAR, MPI_DOUBLE, MPI_INT}, s;
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &s));
    CHECK_MPI(MPI_Type_commit(&s));
    int size;
    MPI_Aint lb, extent, tlb, textent;
    MPI_Count size_x, lb_x, extent_x;
    CHECK_MPI(MPI_Type_size(s, &size));
    CHECK_MPI(MPI_Type_size_x(s, &size_x));
    CHECK_MPI(MPI_Type_get_extent(s, &lb, &extent));
    CHECK_MPI(MPI_Type_get_extent_x(s, &lb_x, &extent_x));
    CHECK_MPI(MPI_Type_get_true_extent(s, &tlb, &textent));
    CHECK(size == 13 && size_x == 13, "struct size %d", size);
    CHECK(lb == 0 && extent == (MPI_Aint)sizeof(struct S), "struct extent %ld, C says %zu", (long)extent,
          sizeof(struct S));
    CHECK(lb_x == 0 && extent_x == extent, "extent_x");
    CHECK(tlb == 0 && textent == (MPI_Aint)(offsetof(struct S, i) + sizeof(int)), "true extent %ld", (long)textent);

    /* Envelope and contents give back the constructor's arguments. */
    int ni, na, nd, combiner;
    CHECK_MPI(MPI_Type_get_envelope(s, &ni, &na, &nd, &combiner));
    CHECK(combiner == MPI_COMBINER_STRUCT && ni == 4 && na == 3 && nd == 3, "struct envelope %d %d %d %d", ni, na, nd,
          combiner);
    int ints[4];
    MPI_Aint aints[3];
    MPI_Datatype dts[3];
    CHECK_MPI(MPI_Type_get_contents(s, 4, 3, 3, ints, aints, dts));
    CHECK(ints[0] == 3 && aints[1] == disp[1] && dts[1] == MPI_DOUBLE, "struct contents");
    CHECK_MPI(MPI_Type_get_envelope(MPI_INT, &ni, &na, &nd, &combiner));
    CHECK(combiner == MPI_COMBINER_NAMED, "MPI_INT is named");

    char name[MPI_MAX_OBJECT_NAME];
    int len;
    CHECK_MPI(MPI_Type_get_name(MPI_DOUBLE_INT, name, &len));
    CHECK(strcmp(name, "MPI_DOUBLE_INT") == 0 && len == 14, "name of MPI_DOUBLE_INT: %s", name);
    CHECK_MPI(MPI_Type_set_name(s, "my struct"));
    CHECK_MPI(MPI_Type_get_name(s, name, &len));
    CHECK(strcmp(name, "my struct") == 0, "name %s", name);

    /* Get_address and MPI_BOTTOM: a struct of absolute addresses. */
    struct S v = {'x', 2.5, 42};
    MPI_Aint base, a_d, a_i;
    CHECK_MPI(MPI_Get_address(&v, &base));
    CHECK_MPI(MPI_Get_address(&v.d, &a_d));
    CHECK_MPI(MPI_Get_address(&v.i, &a_i));
    CHECK(MPI_Aint_diff(a_d, base) == (MPI_Aint)offsetof(struct S, d), "Aint_diff");
    int abl[] = {1, 1};
    MPI_Aint adisp[] = {a_d, a_i};
    MPI_Datatype atypes[] = {MPI_DOUBLE, MPI_INT}, abs_type;
    CHECK_MPI(MPI_Type_create_struct(2, abl, adisp, atypes, &abs_type));
    CHECK_MPI(MPI_Type_commit(&abs_type));
    char buf[64];
    int pos = 0;
    CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, abs_type, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos == 12, "absolute pack %d bytes", pos);
    v.d = 0;
    v.i = 0;
    pos = 0;
    CHECK_MPI(MPI_Unpack(buf, 12, &pos, MPI_BOTTOM, 1, abs_type, MPI_COMM_WORLD));
    CHECK(v.d == 2.5 && v.i == 42, "absolute unpack gave %g %d", v.d, v.i);
    CHECK_MPI(MPI_Type_free(&abs_type));
    CHECK_MPI(MPI_Type_free(&s));
}

static void packing_several(void) {
    /* Pack an int, a vector of doubles and a char at advancing positions. */
    char buf[256];
    int pos = 0, n = 7, n2 = 0;
    double d[6] = {1, 2, 3, 4, 5, 6}, d2[6] = {0};
    char c = 'q', c2 = 0;
    MPI_Datatype v;
    CHECK_MPI(MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &v));
    CHECK_MPI(MPI_Type_commit(&v));
    CHECK_MPI(MPI_Pack(&n, 1, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack(d, 1, v, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Pack(&c, 1, MPI_CHAR, buf, sizeof buf, &pos, MPI_COMM_WORLD));
    CHECK(pos == 4 + 24 + 1, "position %d", pos);
    int end = pos;
    pos = 0;
    CHECK_MPI(MPI_Unpack(buf, end, &pos, &n2, 1, MPI_INT, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Unpack(buf, end, &pos, d2, 1, v, MPI_COMM_WORLD));
    CHECK_MPI(MPI_Unpack(buf, end, &pos, &c2, 1, MPI_CHAR, MPI_COMM_WORLD));
    CHECK(n2 == 7 && d2[0] == 1 && d2[2] == 3 && d2[4] == 5 && d2[1] == 0 && c2 == 'q', "unpacked values");
    CHECK_MPI(MPI_Type_free(&v));
}

/* external32 is big-endian: an int's most significant byte first. */
static void external32(void) {
    int v[2] = {0x01020304, -2}, back[2] = {0};
    unsigned char buf[64];
    MPI_Aint pos = 0, size;
    CHECK_MPI(MPI_Pack_external_size("external32", 2, MPI_INT, &size));
    CHECK(size == 8, "external32 size of 2 ints: %ld", (long)size);
    CHECK_MPI(MPI_Pack_external("external32", v, 2, MPI_INT, buf, sizeof buf, &pos));
    CHECK(pos == 8 && buf[0] == 1 && buf[1] == 2 && buf[2] == 3 && buf[3] == 4 && buf[4] == 0xFF && buf[7] == 0xFE,
          "external32 bytes %02x %02x %02x %02x", buf[0], buf[1], buf[2], buf[3]);
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 8, &pos, back, 2, MPI_INT));
    CHECK(back[0] == v[0] && back[1] == v[1], "external32 round trip %d %d", back[0], back[1]);

    /* A struct of mixed kinds: each element swapped on its own. */
    struct {
        short s;
        double d;
        char c;
    } x = {0x0102, 1.0, 'z'}, y = {0, 0, 0};
    int bl[] = {1, 1, 1};
    MPI_Aint disp[] = {0, 8, 16};
    MPI_Datatype types[] = {MPI_SHORT, MPI_DOUBLE, MPI_CHAR}, t;
    CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
    CHECK_MPI(MPI_Type_commit(&t));
    pos = 0;
    CHECK_MPI(MPI_Pack_external("external32", &x, 1, t, buf, sizeof buf, &pos));
    CHECK(pos == 11 && buf[0] == 1 && buf[1] == 2 && buf[2] == 0x3F && buf[3] == 0xF0 && buf[10] == 'z',
          "external32 struct bytes");
    pos = 0;
    CHECK_MPI(MPI_Unpack_external("external32", buf, 11, &pos, &y, 1, t));
    CHECK(y.s == 0x0102 && y.d == 1.0 && y.c == 'z', "external32 struct round trip");
    CHECK_MPI(MPI_Type_free(&t));
}

static void errors(void) {
    MPI_Datatype t = MPI_DATATYPE_NULL;
    CHECK(error_class(MPI_Type_contiguous(-1, MPI_INT, &t)) == MPI_ERR_COUNT, "negative count");
    CHECK(error_class(MPI_Type_vector(2, 1, 1, MPI_DATATYPE_NULL, &t)) == MPI_ERR_TYPE, "null old type");
    MPI_Datatype predefined = MPI_INT;
    CHECK(error_class(MPI_Type_free(&predefined)) == MPI_ERR_TYPE, "freeing MPI_INT");
    int sizes[] = {4}, subs[] = {5}, starts[] = {0};
    CHECK(error_class(MPI_Type_create_subarray(1, sizes, subs, starts, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG,
          "subsize larger than size");
    int gs[] = {10}, ds[] = {MPI_DISTRIBUTE_BLOCK}, da[] = {2}, ps[] = {3};
    CHECK(error_class(MPI_Type_create_darray(3, 0, 1, gs, ds, da, ps, MPI_ORDER_C, MPI_INT, &t)) == MPI_ERR_ARG,
          "block of 2 over 3 processes cannot cover 10");
    char buf[8];
    int pos = 0, v[4] = {0};
    CHECK(error_class(MPI_Pack(v, 4, MPI_INT, buf, sizeof buf, &pos, MPI_COMM_WORLD)) == MPI_ERR_TRUNCATE,
          "pack into too small a buffer");
    CHECK(pos == 0, "failed pack moved position");
    CHECK(error_class(MPI_Unpack(buf, 4, &pos, v, 2, MPI_INT, MPI_COMM_WORLD)) == MPI_ERR_TRUNCATE,
          "unpack more than the buffer holds");
    MPI_Datatype uncommitted;
    CHECK_MPI(MPI_Type_contiguous(2, MPI_INT, &uncommitted));
    CHECK(error_class(MPI_Pack(v, 1, uncommitted, buf, sizeof buf, &pos, MPI_COMM_WORLD)) == MPI_ERR_TYPE,
          "packing an uncommitted type");
    CHECK_MPI(MPI_Type_free(&uncommitted));
    double a = 1, b = 2;
    CHECK(error_class(MPI_Reduce_local(&a, &b, 1, MPI_DOUBLE, MPI_BAND)) == MPI_ERR_OP, "BAND on double");
    /* MPI_IN_PLACE on either side, and one buffer as both: MPI_ERR_BUFFER,
     * not a crash, and nothing written. */
    CHECK(error_class(MPI_Reduce_local(MPI_IN_PLACE, &b, 1, MPI_DOUBLE, MPI_SUM)) == MPI_ERR_BUFFER, "in place in");
    CHECK(error_class(MPI_Reduce_local(&a, MPI_IN_PLACE, 1, MPI_DOUBLE, MPI_SUM)) == MPI_ERR_BUFFER, "in place out");
    CHECK(error_class(MPI_Reduce_local(&b, &b, 1, MPI_DOUBLE, MPI_SUM)) == MPI_ERR_BUFFER, "aliased buffers");
    CHECK(a == 1 && b == 2, "a refused MPI_Reduce_local changed its buffers: %g %g", a, b);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    constructors();
    queries();
    packing_several();
    external32();
    errors();
    MPI_Finalize();
    return 0;
}
