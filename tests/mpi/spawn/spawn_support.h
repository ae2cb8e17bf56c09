/* What the spawn tests share: the path of this program, to spawn itself. */
#ifndef SPAWN_SUPPORT_H
#define SPAWN_SUPPORT_H

#include "support/check.h"

#include <unistd.h>

static inline void self_path(char *buf, size_t len) {
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    CHECK(n > 0, "cannot read /proc/self/exe");
    buf[n] = '\0';
}

#endif
