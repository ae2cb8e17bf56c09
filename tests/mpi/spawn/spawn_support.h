/* What the spawn tests share: the path of this program, and MPI_Comm_spawn
 * of copies of it (the arguments after the command's). */
#ifndef SPAWN_SUPPORT_H
#define SPAWN_SUPPORT_H

#include "support/check.h"

#include <unistd.h>

static inline void self_path(char *buf, size_t len) {
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    CHECK(n > 0, "cannot read /proc/self/exe");
    buf[n] = '\0';
}

static inline int spawn_self(char **argv, int maxprocs, MPI_Info info, int root, MPI_Comm comm, MPI_Comm *intercomm,
                             int *errcodes) {
    char path[4096];
    self_path(path, sizeof path);
    return MPI_Comm_spawn(path, argv, maxprocs, info, root, comm, intercomm, errcodes);
}

#endif
