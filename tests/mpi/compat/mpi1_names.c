/* MPI-1 names removed in MPI-3.0 that old programs still call, as MPICH
 * still ships them: MPI_Errhandler_create/set/get, MPI_Type_extent/lb/ub,
 * MPI_Type_hvector/hindexed/struct, MPI_Address, the MPI_LB/MPI_UB markers,
 * MPI_Pcontrol, and the MPI-1 attribute calls. At 2 ranks a struct with an
 * MPI_UB marker strides a send. */
#include "support/check.h"

static int handler_calls = 0, handler_code = MPI_SUCCESS;
static void old_handler(MPI_Comm *comm, int *code, ...) {
    (void)comm;
    ++handler_calls;
    handler_code = *code;
}

static int attr_deleted = 0;
static int old_delete(MPI_Comm comm, int keyval, void *value, void *extra) {
    (void)comm;
    (void)keyval;
    (void)value;
    (void)extra;
    ++attr_deleted;
    return MPI_SUCCESS;
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);

    /* Error handlers. */
    MPI_Errhandler eh, got;
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
    CHECK_MPI(MPI_Errhandler_create(old_handler, &eh));
    CHECK_MPI(MPI_Errhandler_set(dup, eh));
    CHECK_MPI(MPI_Errhandler_get(dup, &got));
    CHECK(got == eh, "Errhandler_get returned another handler");
    MPI_Errhandler_free(&got);
    int value = 0;
    MPI_Send(&value, 1, MPI_INT, size + 5, 0, dup); /* invalid rank: the handler runs */
    int cls = -1;
    MPI_Error_class(handler_code, &cls);
    CHECK(handler_calls == 1 && cls == MPI_ERR_RANK, "handler calls %d, class %d", handler_calls, cls);
    CHECK_MPI(MPI_Errhandler_free(&eh));

    /* Bounds and the markers. */
    int blocks[3] = {1, 1, 1};
    MPI_Aint disps[3] = {-4, 0, 20};
    MPI_Datatype types[3] = {MPI_LB, MPI_INT, MPI_UB}, marked;
    CHECK_MPI(MPI_Type_struct(3, blocks, disps, types, &marked));
    CHECK_MPI(MPI_Type_commit(&marked));
    MPI_Aint extent = 0, lb = 0, ub = 0;
    CHECK_MPI(MPI_Type_extent(marked, &extent));
    CHECK_MPI(MPI_Type_lb(marked, &lb));
    CHECK_MPI(MPI_Type_ub(marked, &ub));
    CHECK(extent == 24 && lb == -4 && ub == 20, "LB/UB struct: extent %ld lb %ld ub %ld", (long)extent, (long)lb,
          (long)ub);
    int tsize = 0;
    MPI_Type_size(marked, &tsize);
    CHECK(tsize == (int)sizeof(int), "LB/UB struct size %d", tsize);
    CHECK_MPI(MPI_Type_extent(MPI_DOUBLE, &extent));
    CHECK(extent == sizeof(double), "Type_extent(MPI_DOUBLE) %ld", (long)extent);

    /* hvector / hindexed. */
    MPI_Datatype hv, hi;
    CHECK_MPI(MPI_Type_hvector(3, 2, 4 * (MPI_Aint)sizeof(int), MPI_INT, &hv));
    CHECK_MPI(MPI_Type_size(hv, &tsize));
    CHECK_MPI(MPI_Type_extent(hv, &extent));
    CHECK(tsize == 6 * (int)sizeof(int) && extent == 10 * (MPI_Aint)sizeof(int), "hvector size %d extent %ld", tsize,
          (long)extent);
    int hblocks[2] = {1, 2};
    MPI_Aint hdisps[2] = {0, 3 * sizeof(double)};
    CHECK_MPI(MPI_Type_hindexed(2, hblocks, hdisps, MPI_DOUBLE, &hi));
    CHECK_MPI(MPI_Type_size(hi, &tsize));
    CHECK_MPI(MPI_Type_ub(hi, &ub));
    CHECK(tsize == 3 * (int)sizeof(double) && ub == 5 * (MPI_Aint)sizeof(double), "hindexed size %d ub %ld", tsize,
          (long)ub);
    MPI_Type_free(&hv);
    MPI_Type_free(&hi);

    /* MPI_Address. */
    double pair[2];
    MPI_Aint a0, a1;
    CHECK_MPI(MPI_Address(&pair[0], &a0));
    CHECK_MPI(MPI_Address(&pair[1], &a1));
    CHECK(a1 - a0 == sizeof(double), "MPI_Address difference %ld", (long)(a1 - a0));

    /* A stride set by MPI_UB: every fourth int of the sender's array. */
    MPI_Datatype strided;
    int sblocks[2] = {1, 1};
    MPI_Aint sdisps[2] = {0, 4 * sizeof(int)};
    MPI_Datatype stypes[2] = {MPI_INT, MPI_UB};
    CHECK_MPI(MPI_Type_struct(2, sblocks, sdisps, stypes, &strided));
    CHECK_MPI(MPI_Type_commit(&strided));
    if (size >= 2 && rank < 2) {
        int data[12], got3[3] = {0, 0, 0};
        for (int i = 0; i < 12; ++i) data[i] = 100 + i;
        if (rank == 0) {
            CHECK_MPI(MPI_Send(data, 3, strided, 1, 7, MPI_COMM_WORLD));
        } else {
            CHECK_MPI(MPI_Recv(got3, 3, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE));
            CHECK(got3[0] == 100 && got3[1] == 104 && got3[2] == 108, "strided by MPI_UB: %d %d %d", got3[0], got3[1],
                  got3[2]);
        }
    }
    /* Ops still take a struct of ints with markers in it. */
    int mine = rank + 1, sum = 0;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, marked, MPI_SUM, MPI_COMM_WORLD));
    CHECK(sum == size * (size + 1) / 2, "Allreduce over an LB/UB struct: %d", sum);
    MPI_Type_free(&strided);
    MPI_Type_free(&marked);

    /* MPI-1 attributes and MPI_Pcontrol. */
    int key = MPI_KEYVAL_INVALID, flag = 0;
    void *attr = NULL;
    static int payload = 42;
    CHECK_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, old_delete, &key, NULL));
    CHECK_MPI(MPI_Attr_put(dup, key, &payload));
    CHECK_MPI(MPI_Attr_get(dup, key, &attr, &flag));
    CHECK(flag && attr == &payload, "Attr_get");
    CHECK_MPI(MPI_Attr_delete(dup, key));
    CHECK(attr_deleted == 1, "Attr_delete ran %d delete callbacks", attr_deleted);
    CHECK_MPI(MPI_Keyval_free(&key));
    CHECK_MPI(MPI_Pcontrol(1));
    CHECK_MPI(MPI_Pcontrol(0, "ignored"));
    MPI_Comm_free(&dup);
    MPI_Finalize();
    return 0;
}
