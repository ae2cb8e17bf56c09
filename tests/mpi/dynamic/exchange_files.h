/* How the two jobs of the cross-job tests hand each other text (a port
 * name, a pid) through a directory both can read: written under a
 * temporary name and renamed, so a reader never sees half a line; read
 * with a deadline of 30 s, waiting for the other job to write it.
 * Include after support/check.h. */
#ifndef MPI_TEST_DYNAMIC_EXCHANGE_FILES_H
#define MPI_TEST_DYNAMIC_EXCHANGE_FILES_H

#include <stdio.h>
#include <string.h>
#include <unistd.h>

static void write_file(const char *dir, const char *name, const char *text) {
    char path[512], tmp[512];
    snprintf(tmp, sizeof tmp, "%s/%s.tmp", dir, name);
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(tmp, "w");
    CHECK(f != NULL, "cannot write %s", tmp);
    fprintf(f, "%s\n", text);
    fclose(f);
    CHECK(rename(tmp, path) == 0, "rename to %s", path);
}

static void read_file(const char *dir, const char *name, char *text, int len) {
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = NULL;
    for (int i = 0; i < 3000 && (f = fopen(path, "r")) == NULL; ++i) usleep(10 * 1000);
    CHECK(f != NULL, "no %s after 30 s", path);
    CHECK(fgets(text, len, f) != NULL, "empty %s", path);
    fclose(f);
    text[strcspn(text, "\n")] = '\0';
}

#endif
