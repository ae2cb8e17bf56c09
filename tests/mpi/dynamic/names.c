/* MPI_Publish_name / MPI_Lookup_name / MPI_Unpublish_name round trip and
 * their errors: a name published twice (MPI_ERR_SERVICE), a lookup of an
 * unknown name (MPI_ERR_NAME), an unpublish of an unknown name or with
 * another port (MPI_ERR_SERVICE). Each rank uses names of its own (the
 * tests run without a VM, where names are a table of each process). */
#include "support/check.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

    char port[MPI_MAX_PORT_NAME], found[MPI_MAX_PORT_NAME];
    CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
    char service[64], unknown[64];
    snprintf(service, sizeof service, "ftmpi-test-names-%d-%d", (int)getpid(), rank);
    snprintf(unknown, sizeof unknown, "ftmpi-test-unknown-%d-%d", (int)getpid(), rank);

    CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
    memset(found, 0, sizeof found);
    CHECK_MPI(MPI_Lookup_name(service, MPI_INFO_NULL, found));
    CHECK(strcmp(found, port) == 0, "lookup gave \"%s\", published \"%s\"", found, port);
    CHECK_CLASS(MPI_Publish_name(service, MPI_INFO_NULL, port), MPI_ERR_SERVICE);
    CHECK_CLASS(MPI_Unpublish_name(service, MPI_INFO_NULL, "another port"), MPI_ERR_SERVICE);
    CHECK_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));
    CHECK_CLASS(MPI_Lookup_name(service, MPI_INFO_NULL, found), MPI_ERR_NAME);
    CHECK_CLASS(MPI_Unpublish_name(service, MPI_INFO_NULL, port), MPI_ERR_SERVICE);
    CHECK_CLASS(MPI_Lookup_name(unknown, MPI_INFO_NULL, found), MPI_ERR_NAME);
    CHECK_CLASS(MPI_Unpublish_name(unknown, MPI_INFO_NULL, port), MPI_ERR_SERVICE);
    /* Published again after the unpublish. */
    CHECK_MPI(MPI_Publish_name(service, MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Lookup_name(service, MPI_INFO_NULL, found));
    CHECK_MPI(MPI_Unpublish_name(service, MPI_INFO_NULL, port));

    /* Arguments. */
    CHECK_CLASS(MPI_Publish_name(NULL, MPI_INFO_NULL, port), MPI_ERR_ARG);
    CHECK_CLASS(MPI_Lookup_name(service, MPI_INFO_NULL, NULL), MPI_ERR_ARG);

    /* The classes have names and strings. */
    const int classes[2] = {MPI_ERR_NAME, MPI_ERR_SERVICE};
    for (int i = 0; i < 2; ++i) {
        char text[MPI_MAX_ERROR_STRING];
        int len = 0, cls = -1;
        CHECK_MPI(MPI_Error_string(classes[i], text, &len));
        CHECK(len > 0 && strstr(text, "service") != NULL, "error string \"%s\"", text);
        CHECK_MPI(MPI_Error_class(classes[i], &cls));
        CHECK(cls == classes[i], "class of %d is %d", classes[i], cls);
    }

    CHECK_MPI(MPI_Close_port(port));
    CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
    if (rank == 0) printf("dynamic names: ok (%d ranks)\n", size);
    MPI_Finalize();
    return 0;
}
