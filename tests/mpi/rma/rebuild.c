/* Windows and a file across an FT-MPI recovery (REBUILD or SHRINK mode),
 * with a real SIGKILL of FT_KILL_RANK after both windows were used and every
 * rank wrote its block of a file with MPI_File_write_at_all:
 *
 *   - the survivors' fence on the window fails (the failure class of the
 *     mode), MPI_Comm_dup(MPI_COMM_WORLD) recovers;
 *   - on the window of the old communicator a lock of the victim's rank
 *     fails at once (REBUILD put a new process there, which does not know
 *     that window) and MPIX_Win_get_failed names it; freeing that window
 *     and closing the old file end (locally) instead of hanging;
 *   - the MPI_Win_allocate window is rebuilt in place over the recovered
 *     communicator (FTMPI_Win_rebuild) while the replacement, whose MPI_Init
 *     returned MPI_INIT_RESTARTED_NODE, calls MPI_Win_allocate: the
 *     survivors' memory and the window's name are kept, the replacement's
 *     memory is zero;
 *   - the MPI_Win_create window is made again by everyone over the same
 *     user memory, which the replacement first restores from the file
 *     (reopened on the recovered communicator, read with read_at_all);
 *   - fence gets, a Fetch_and_op counter under lock_all and a checked read
 *     show both windows work over the recovered communicator.
 * In SHRINK mode there is no replacement: the windows shrink with the
 * communicator and the survivors are renumbered; in BLANK mode the victim's
 * rank stays a gap, which the epochs leave out. Values name the rank a
 * process had at MPI_Init, so checks hold in every mode. */
#include "inject.h"

#include <errno.h>
#include <sys/stat.h>

enum { N = 8 };

static long alloc_value(int orig, int i) {
    return 100L * orig + i;
}
static long created_value(int orig, int i) {
    return 1000L * orig + i;
}

/* FT_DEBUG=1: a line per step, to see where a run stopped. */
static void step(const char *what) {
    if (getenv("FT_DEBUG")) {
        printf("rank %d: %s\n", ft_rank(), what);
        fflush(stdout);
    }
}

static void file_path(char *path, size_t n) {
    const char *dir = getenv("FT_CKPT_DIR");
    CHECK(dir && *dir, "FT_CKPT_DIR must be set");
    CHECK(mkdir(dir, 0755) == 0 || errno == EEXIST, "cannot make %s", dir);
    snprintf(path, n, "%s/rma_rebuild.dat", dir);
}

/* MPI_Comm_dup(MPI_COMM_WORLD) until it succeeds: the recovery point of the
 * FT-MPI modes (a failure during the recovery makes it fail once more). */
static MPI_Comm recover(void) {
    MPI_Comm out = MPI_COMM_NULL;
    for (int attempt = 0; attempt < 8; ++attempt) {
        int rc = MPI_Comm_dup(MPI_COMM_WORLD, &out);
        if (rc == MPI_SUCCESS) {
            MPI_Comm_set_errhandler(out, MPI_ERRORS_RETURN);
            return out;
        }
        CHECK(error_class(rc) == ft_failure_class(MPI_COMM_WORLD), "MPI_Comm_dup gave %s", error_class_name(rc));
    }
    CHECK(0, "no recovery after 8 attempts");
    return MPI_COMM_NULL;
}

int main(int argc, char **argv) {
    const int init = MPI_Init(&argc, &argv);
    const int restarted = init == MPI_INIT_RESTARTED_NODE;
    CHECK(init == MPI_SUCCESS || restarted, "MPI_Init returned %d", init);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int world_size;
    MPI_Comm_size(MPI_COMM_WORLD, &world_size);
    const int me = ft_rank(); /* the rank this process (or the one it replaces) had at MPI_Init */
    const int victim = ft_kill_rank();
    CHECK(victim > 0 && victim < world_size - 1 && world_size >= 3, "FT_KILL_RANK=%d with %d ranks", victim,
          world_size);
    int comm_mode = 0, msg_mode = 0;
    FTMPI_Comm_get_mode(MPI_COMM_WORLD, &comm_mode, &msg_mode);
    const int rebuild_mode = comm_mode == FTMPI_COMM_MODE_REBUILD;
    const int blank_mode = comm_mode == FTMPI_COMM_MODE_BLANK;
    char path[512];
    file_path(path, sizeof path);

    long *alloc_mem = NULL;
    long created[N];
    MPI_Win wa = MPI_WIN_NULL, wc = MPI_WIN_NULL;
    MPI_File fh = MPI_FILE_NULL;
    MPI_Comm work = MPI_COMM_NULL;
    if (!restarted) {
        work = recover();
        CHECK_MPI(MPI_Win_allocate(N * sizeof(long), sizeof(long), MPI_INFO_NULL, work, &alloc_mem, &wa));
        for (int i = 0; i < N; ++i) alloc_mem[i] = alloc_value(me, i), created[i] = created_value(me, i);
        CHECK_MPI(MPI_Win_create(created, N * sizeof(long), sizeof(long), MPI_INFO_NULL, work, &wc));
        CHECK_MPI(MPI_Win_set_errhandler(wa, MPI_ERRORS_RETURN));
        CHECK_MPI(MPI_Win_set_errhandler(wc, MPI_ERRORS_RETURN));
        CHECK_MPI(MPI_Win_set_name(wa, "allocated"));
        /* Both windows in use before the failure. */
        const int right = (me + 1) % world_size;
        long got[2] = {-1, -1};
        CHECK_MPI(MPI_Win_fence(0, wa));
        CHECK_MPI(MPI_Win_fence(0, wc));
        CHECK_MPI(MPI_Get(&got[0], 1, MPI_LONG, right, 3, 1, MPI_LONG, wa));
        CHECK_MPI(MPI_Get(&got[1], 1, MPI_LONG, right, 3, 1, MPI_LONG, wc));
        CHECK_MPI(MPI_Win_fence(0, wa));
        CHECK_MPI(MPI_Win_fence(0, wc));
        CHECK(got[0] == alloc_value(right, 3) && got[1] == created_value(right, 3), "before the failure got %ld %ld",
              got[0], got[1]);
        /* The state the replacement will restore: every rank's block. */
        if (me == 0) MPI_File_delete(path, MPI_INFO_NULL);
        CHECK_MPI(MPI_Barrier(work));
        CHECK_MPI(MPI_File_open(work, path, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
        CHECK_MPI(
            MPI_File_write_at_all(fh, (MPI_Offset)me * N * sizeof(long), created, N, MPI_LONG, MPI_STATUS_IGNORE));
        CHECK_MPI(MPI_File_sync(fh));

        ft_sync_before_kill(work, victim);
        if (me == victim) {
            printf("rank %d: dying with two windows and a file open\n", me);
            ft_die();
        }
        const int fence = MPI_Win_fence(0, wa);
        CHECK(error_class(fence) == ft_failure_class(work), "fence with a dead member gave %s",
              error_class_name(fence));
        step("fence failed; recovering");
        MPI_Comm_free(&work);
        work = recover();

        step("recovered");
        /* The windows and the file of the old communicator: errors, no hang. */
        if (rebuild_mode) {
            const int lock = MPI_Win_lock(MPI_LOCK_SHARED, victim, 0, wc);
            CHECK(error_class(lock) == ft_failure_class(MPI_COMM_WORLD), "lock of the replaced rank gave %s",
                  error_class_name(lock));
        }
        step("lock checked");
        MPI_Group failed;
        int nfailed = 0;
        CHECK_MPI(MPIX_Win_get_failed(wc, &failed));
        MPI_Group_size(failed, &nfailed);
        MPI_Group_free(&failed);
        CHECK(nfailed == 1, "MPIX_Win_get_failed on the old window names %d processes", nfailed);
        step("get_failed checked");
        const int freed = MPI_Win_free(&wc);
        CHECK(wc == MPI_WIN_NULL && error_class(freed) == ft_failure_class(MPI_COMM_WORLD),
              "MPI_Win_free of the old window returned class %d", error_class(freed));
        step("old window freed");
        const int closed = MPI_File_close(&fh);
        CHECK(fh == MPI_FILE_NULL && error_class(closed) == ft_failure_class(MPI_COMM_WORLD),
              "MPI_File_close of the old file returned class %d", error_class(closed));
        printf("rank %d: old window freed and old file closed, both with the failure class\n", me);

        step("rebuilding");
        CHECK_MPI(FTMPI_Win_rebuild(wa, work));
    } else {
        printf("rank %d: restarted (MPI_INIT_RESTARTED_NODE)\n", me);
        work = recover();
        CHECK_MPI(MPI_Win_allocate(N * sizeof(long), sizeof(long), MPI_INFO_NULL, work, &alloc_mem, &wa));
        CHECK_MPI(MPI_Win_set_errhandler(wa, MPI_ERRORS_RETURN));
        for (int i = 0; i < N; ++i) CHECK(alloc_mem[i] == 0, "the replacement's window memory is not zero");
        for (int i = 0; i < N; ++i) created[i] = -1;
    }

    step("window ready");
    int rank, size;
    MPI_Comm_rank(work, &rank);
    MPI_Comm_size(work, &size);
    CHECK(size == (rebuild_mode || blank_mode ? world_size : world_size - 1), "recovered communicator of %d ranks",
          size);
    int orig[64], live = 0; /* a BLANK gap keeps -1 (collectives leave it out) */
    CHECK(size <= 64, "at most 64 ranks");
    for (int r = 0; r < size; ++r) orig[r] = -1;
    CHECK_MPI(MPI_Allgather(&me, 1, MPI_INT, orig, 1, MPI_INT, work));
    for (int r = 0; r < size; ++r) live += orig[r] >= 0;
    CHECK(live == (blank_mode ? world_size - 1 : size), "%d live ranks", live);

    /* The file survives: reopened on the recovered communicator; the
     * replacement restores its memory from it before exposing it. */
    long from_file[N];
    CHECK_MPI(MPI_File_open(work, path, MPI_MODE_RDWR, MPI_INFO_NULL, &fh));
    const MPI_Offset at = (MPI_Offset)me * N * sizeof(long);
    CHECK_MPI(MPI_File_read_at_all(fh, at, from_file, N, MPI_LONG, MPI_STATUS_IGNORE));
    CHECK_MPI(MPI_File_close(&fh));
    for (int i = 0; i < N; ++i) {
        CHECK(from_file[i] == created_value(me, i), "file block of rank %d holds %ld at %d", me, from_file[i], i);
        if (restarted) created[i] = from_file[i];
        CHECK(created[i] == created_value(me, i), "user memory of rank %d lost at %d", me, i);
    }
    step("file read");
    CHECK_MPI(MPI_Win_create(created, N * sizeof(long), sizeof(long), MPI_INFO_NULL, work, &wc));
    CHECK_MPI(MPI_Win_set_errhandler(wc, MPI_ERRORS_RETURN));

    if (!restarted) {
        char name[MPI_MAX_OBJECT_NAME];
        int len = 0;
        CHECK_MPI(MPI_Win_get_name(wa, name, &len));
        CHECK(strcmp(name, "allocated") == 0, "the rebuilt window is named \"%s\"", name);
    }
    MPI_Group g;
    int gsize = 0;
    CHECK_MPI(MPI_Win_get_group(wa, &g));
    MPI_Group_size(g, &gsize);
    MPI_Group_free(&g);
    CHECK(gsize == size, "the rebuilt window's group has %d members, the communicator %d", gsize, size);

    /* Fence epochs over the recovered members: the right neighbour's memory
     * of both windows (a replacement's allocated memory is zero). */
    int right = (rank + 1) % size;
    while (orig[right] < 0) right = (right + 1) % size; /* the next live rank */
    long a[N], c[N];
    CHECK_MPI(MPI_Win_fence(0, wa));
    CHECK_MPI(MPI_Win_fence(0, wc));
    CHECK_MPI(MPI_Get(a, N, MPI_LONG, right, 0, N, MPI_LONG, wa));
    CHECK_MPI(MPI_Get(c, N, MPI_LONG, right, 0, N, MPI_LONG, wc));
    CHECK_MPI(MPI_Win_fence(0, wa));
    CHECK_MPI(MPI_Win_fence(0, wc));
    const int replaced = rebuild_mode && orig[right] == victim;
    for (int i = 0; i < N; ++i) {
        CHECK(a[i] == (replaced ? 0 : alloc_value(orig[right], i)),
              "allocated window of rank %d (was %d) holds %ld at %d", right, orig[right], a[i], i);
        CHECK(c[i] == created_value(orig[right], i), "created window of rank %d holds %ld at %d", right, c[i], i);
    }

    step("fence epochs done");
    /* Passive target: every rank adds 1 to a counter in the memory of the
     * victim's rank (its replacement's) or, after a shrink, of rank 1; rank
     * 0's in BLANK mode, where rank 1 is a gap. */
    const int target = orig[1] >= 0 ? 1 : 0;
    const long start = rebuild_mode && orig[target] == victim ? 0 : alloc_value(orig[target], 0);
    const long one = 1;
    long old = -1;
    CHECK_MPI(MPI_Win_lock_all(0, wa));
    CHECK_MPI(MPI_Fetch_and_op(&one, &old, MPI_LONG, target, 0, MPI_SUM, wa));
    CHECK_MPI(MPI_Win_unlock_all(wa));
    CHECK(old >= start && old < start + live, "Fetch_and_op returned %ld (counter starts at %ld)", old, start);
    CHECK_MPI(MPI_Barrier(work));
    long counter = -1;
    CHECK_MPI(MPI_Win_lock(MPI_LOCK_SHARED, target, 0, wa));
    CHECK_MPI(MPI_Get(&counter, 1, MPI_LONG, target, 0, 1, MPI_LONG, wa));
    CHECK_MPI(MPI_Win_unlock(target, wa));
    CHECK(counter == start + live, "counter %ld, expected %ld", counter, start + live);

    printf("rank %d (was %d%s): windows work after the recovery, %d ranks\n", rank, me,
           restarted ? ", replacement" : "", size);
    CHECK_MPI(MPI_Win_free(&wc));
    CHECK_MPI(MPI_Win_free(&wa));
    CHECK_MPI(MPI_Barrier(work));
    if (rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
    MPI_Comm_free(&work);
    MPI_Finalize();
    return 0;
}
