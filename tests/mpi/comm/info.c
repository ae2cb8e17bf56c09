/* MPI_Info: set/get/valuelen/nkeys/nthkey in insertion order, replace,
 * delete, dup independence, free; MPI_INFO_ENV; errors for bad keys. */
#include "support/check.h"

#include <string.h>

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    MPI_Info info;
    CHECK_MPI(MPI_Info_create(&info));
    int n, flag, len;
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 0, "new info has %d keys", n);
    CHECK_MPI(MPI_Info_set(info, "zeta", "1"));
    CHECK_MPI(MPI_Info_set(info, "alpha", "two"));
    CHECK_MPI(MPI_Info_set(info, "zeta", "three")); /* replaces, keeps its place */
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 2, "%d keys after three sets", n);
    char key[MPI_MAX_INFO_KEY + 1], value[MPI_MAX_INFO_VAL + 1];
    CHECK_MPI(MPI_Info_get_nthkey(info, 0, key));
    CHECK(strcmp(key, "zeta") == 0, "first key '%s'", key);
    CHECK_MPI(MPI_Info_get_nthkey(info, 1, key));
    CHECK(strcmp(key, "alpha") == 0, "second key '%s'", key);
    CHECK_MPI(MPI_Info_get(info, "zeta", MPI_MAX_INFO_VAL, value, &flag));
    CHECK(flag && strcmp(value, "three") == 0, "zeta = '%s'", value);
    CHECK_MPI(MPI_Info_get_valuelen(info, "alpha", &len, &flag));
    CHECK(flag && len == 3, "valuelen %d", len);
    CHECK_MPI(MPI_Info_get(info, "alpha", 1, value, &flag)); /* truncated to 1 character */
    CHECK(flag && strcmp(value, "t") == 0, "truncated value '%s'", value);
    CHECK_MPI(MPI_Info_get(info, "missing", MPI_MAX_INFO_VAL, value, &flag));
    CHECK(!flag, "missing key found");

    MPI_Info copy;
    CHECK_MPI(MPI_Info_dup(info, &copy));
    CHECK_MPI(MPI_Info_delete(info, "zeta"));
    CHECK_MPI(MPI_Info_get_nkeys(info, &n));
    CHECK(n == 1, "%d keys after delete", n);
    CHECK_MPI(MPI_Info_get(copy, "zeta", MPI_MAX_INFO_VAL, value, &flag));
    CHECK(flag && strcmp(value, "three") == 0, "the dup lost a key deleted from the original");
    CHECK_CLASS(MPI_Info_delete(info, "zeta"), MPI_ERR_INFO_NOKEY);
    CHECK_CLASS(MPI_Info_get_nthkey(info, 5, key), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Info_set(info, "", "x"), MPI_ERR_INFO_KEY);
    char long_key[MPI_MAX_INFO_KEY + 10];
    memset(long_key, 'k', sizeof long_key - 1);
    long_key[sizeof long_key - 1] = '\0';
    CHECK_CLASS(MPI_Info_set(info, long_key, "x"), MPI_ERR_INFO_KEY);

    /* Hints on a communicator come back from Comm_get_info. */
    MPI_Comm dup;
    CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, copy, &dup));
    MPI_Info used;
    CHECK_MPI(MPI_Comm_get_info(dup, &used));
    CHECK_MPI(MPI_Info_get(used, "alpha", MPI_MAX_INFO_VAL, value, &flag));
    CHECK(flag && strcmp(value, "two") == 0, "Comm_get_info lost the hint");
    CHECK_MPI(MPI_Info_free(&used));
    CHECK_MPI(MPI_Comm_free(&dup));

    /* MPI_INFO_ENV is readable, not writable. */
    CHECK_MPI(MPI_Info_get_nkeys(MPI_INFO_ENV, &n));
    CHECK(n >= 1, "MPI_INFO_ENV is empty");
    CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "maxprocs", MPI_MAX_INFO_VAL, value, &flag));
    CHECK(flag, "MPI_INFO_ENV has no maxprocs");
    CHECK_CLASS(MPI_Info_set(MPI_INFO_ENV, "a", "b"), MPI_ERR_INFO);

    CHECK_MPI(MPI_Info_free(&info));
    CHECK(info == MPI_INFO_NULL, "Info_free did not reset the handle");
    CHECK_MPI(MPI_Info_free(&copy));
    CHECK_CLASS(MPI_Info_free(&info), MPI_ERR_INFO);
    MPI_Finalize();
    return 0;
}
