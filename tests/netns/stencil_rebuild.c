/* stencil_rebuild — a 2D Jacobi (5-point stencil) job that survives the loss
 * of ranks or hosts under FT-MPI's REBUILD mode, for the recovery-policy
 * tests and benchmarks (docs/policies.md):
 *
 *   ftmpirun --comm-mode rebuild --msg-mode nop -np 16 stencil_rebuild DIR
 *            [--iters N] [--every K] [--sleep-ms MS] [--dims PxQ] [--size NXxNY]
 *
 * --msg-mode nop matters: in the default CONT mode a halo exchange with a
 * live neighbour goes on after a failure, so a rank whose neighbours have
 * already gone into the recovery waits for them for ever; under NOP every
 * pending operation fails once a member failed.
 *
 * The NX x NY interior of a grid with fixed boundary values (64x64 by
 * default) is split in blocks over an MPI Cartesian communicator of the
 * job's size (dims from MPI_Dims_create unless --dims); each of N iterations
 * (200) exchanges halos with the four neighbours, relaxes every point to the
 * mean of its neighbours and sums the change with an allreduce (which also
 * makes every rank see a failure within one iteration). Every K iterations
 * (10) each rank writes its block to DIR/ckpt.rank<R>.<slot> (temp file +
 * rename, two slots: the newest two checkpoints).
 *
 * FT-MPI's restart flow: a failure raises the error handler, which longjmps
 * back to the recovery point; MPI_Comm_dup(MPI_COMM_WORLD) is the recovery
 * (it returns once the replacements are in); a replacement's MPI_Init
 * returns MPI_INIT_RESTARTED_NODE and it finds its predecessor's
 * checkpoints in DIR. Everyone then rolls back to the newest checkpoint all
 * ranks have (they differ by at most one: a checkpoint is written after the
 * iteration's allreduce, so no rank writes checkpoint c+K before every rank
 * has reached c).
 *
 * Each rank writes DIR/rank<R>.pid at start (a replacement overwrites it) so
 * a test can kill it, and prints "rank R incarnation I host H" (H: the
 * FTMPI_HOST_ID environment variable, else the daemon's HARNESS_MEMBER, else
 * the host name). A survivor prints "rank R recovered in T ms (…)" per
 * recovery. At the end rank 0 gathers the grid, computes the same iterations
 * serially (the failure-free answer) and prints the checksum, the seconds
 * from the first recovery point to the end of the iterations, and "correct"
 * or "WRONG"; its exit status is 1 when wrong, 2 for bad arguments.
 *
 * Plain MPI C: with another MPI's mpicc it builds and runs failure-free. */
#define _POSIX_C_SOURCE 200809L /* nanosleep, gethostname with -std=c11 */

#include <mpi.h>
#if defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>
#endif
#endif

#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct options {
    const char *dir;
    int iters;
    int every;
    int sleep_ms;
    int dims[2]; /* 0: MPI_Dims_create */
    int size[2]; /* interior points along dimension 0 (rows) and 1 (columns) */
} options;

/* One rank's block of the interior with a ghost layer: rows lo[0] .. lo[0]+n[0]-1
 * and columns lo[1] .. lo[1]+n[1]-1 of the global interior (1-based: row 0
 * and row NX+1 are the fixed boundary). */
typedef struct block {
    int lo[2], n[2];
    double *u, *v; /* (n[0]+2) x (n[1]+2), current and next */
} block;

#define AT(b, a, i, j) ((a)[(size_t)(i) * (size_t)((b)->n[1] + 2) + (size_t)(j)])

static int world_rank = -1;

static void fail(const char *format, ...) {
    va_list ap;
    va_start(ap, format);
    fprintf(stderr, "stencil_rebuild: rank %d: ", world_rank);
    vfprintf(stderr, format, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    MPI_Abort(MPI_COMM_WORLD, 3);
    exit(3);
}

/* ---- options ------------------------------------------------------------ */

static int parse_int(const char *text, int min, int *out) {
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || end == text || *end || v < min || v > 1000000000) return 0;
    *out = (int)v;
    return 1;
}

static int parse_pair(const char *text, int out[2]) {
    char first[32];
    const char *x = strchr(text, 'x');
    if (!x || (size_t)(x - text) >= sizeof first) return 0;
    memcpy(first, text, (size_t)(x - text));
    first[x - text] = '\0';
    return parse_int(first, 1, &out[0]) && parse_int(x + 1, 1, &out[1]);
}

/* NULL when the arguments are good, else a one-line reason. */
static const char *parse_options(int argc, char **argv, options *o) {
    static char why[256];
    *o = (options){NULL, 200, 10, 0, {0, 0}, {64, 64}};
    if (argc < 2 || argv[1][0] == '-')
        return "usage: stencil_rebuild DIR [--iters N] [--every K] [--sleep-ms MS] [--dims PxQ] [--size NXxNY]";
    o->dir = argv[1];
    for (int i = 2; i < argc; i += 2) {
        const char *name = argv[i], *value = i + 1 < argc ? argv[i + 1] : NULL;
        int ok = value != NULL;
        if (ok && strcmp(name, "--iters") == 0)
            ok = parse_int(value, 1, &o->iters);
        else if (ok && strcmp(name, "--every") == 0)
            ok = parse_int(value, 1, &o->every);
        else if (ok && strcmp(name, "--sleep-ms") == 0)
            ok = parse_int(value, 0, &o->sleep_ms);
        else if (ok && strcmp(name, "--dims") == 0)
            ok = parse_pair(value, o->dims);
        else if (ok && strcmp(name, "--size") == 0)
            ok = parse_pair(value, o->size);
        else if (ok) {
            snprintf(why, sizeof why, "unknown option %s", name);
            return why;
        }
        if (!ok) {
            snprintf(why, sizeof why, "%s needs %s", name,
                     strcmp(name, "--dims") == 0 || strcmp(name, "--size") == 0 ? "AxB (positive integers)"
                                                                                : "a non-negative integer");
            return why;
        }
    }
    return NULL;
}

/* ---- the computation, shared by the parallel run and the serial answer --- */

/* Global point (i, j), 0 <= i <= NX+1: the boundary is fixed (hot first row,
 * warm first column), the interior starts from a pattern. */
static double initial_value(const options *o, int i, int j) {
    if (i == 0) return 1.0;
    if (j == 0) return 0.5;
    if (i == o->size[0] + 1 || j == o->size[1] + 1) return 0.0;
    return (double)((i * 37 + j * 11) % 17) / 17.0;
}

/* The part [lo, lo+n) of `points` that coordinate c of `parts` gets. */
static void split(int points, int parts, int c, int *lo, int *n) {
    *lo = 1 + (int)((long)c * points / parts);
    *n = 1 + (int)((long)(c + 1) * points / parts) - *lo;
}

static void block_alloc(block *b, const options *o, const int dims[2], const int coords[2]) {
    for (int d = 0; d < 2; ++d) split(o->size[d], dims[d], coords[d], &b->lo[d], &b->n[d]);
    const size_t count = (size_t)(b->n[0] + 2) * (size_t)(b->n[1] + 2);
    b->u = malloc(count * sizeof(double));
    b->v = malloc(count * sizeof(double));
    if (!b->u || !b->v) fail("out of memory for a %dx%d block", b->n[0], b->n[1]);
}

/* Both arrays, ghosts included: the ghosts on the domain's edge keep the
 * boundary values for good, the others are overwritten by the halo exchange. */
static void block_init(block *b, const options *o) {
    for (int i = 0; i < b->n[0] + 2; ++i)
        for (int j = 0; j < b->n[1] + 2; ++j)
            AT(b, b->u, i, j) = AT(b, b->v, i, j) = initial_value(o, b->lo[0] - 1 + i, b->lo[1] - 1 + j);
}

/* One Jacobi sweep u -> v, then swap; returns the sum of the changes. */
static double sweep(block *b) {
    double change = 0.0;
    for (int i = 1; i <= b->n[0]; ++i)
        for (int j = 1; j <= b->n[1]; ++j) {
            const double next =
                0.25 * (AT(b, b->u, i - 1, j) + AT(b, b->u, i + 1, j) + AT(b, b->u, i, j - 1) + AT(b, b->u, i, j + 1));
            change += fabs(next - AT(b, b->u, i, j));
            AT(b, b->v, i, j) = next;
        }
    double *t = b->u;
    b->u = b->v;
    b->v = t;
    return change;
}

/* A checksum that depends on every point and its place. */
static double checksum(const double *grid, int nx, int ny) {
    double sum = 0.0;
    for (int i = 0; i < nx; ++i)
        for (int j = 0; j < ny; ++j) sum += grid[(size_t)i * (size_t)ny + (size_t)j] * (double)(1 + (i * ny + j) % 7);
    return sum;
}

/* ---- halo exchange --------------------------------------------------------- */

static double *edge_out, *edge_in; /* one row or column, packed */

static void pack(const block *b, int along_rows, int index, double *out) {
    if (along_rows)
        for (int j = 1; j <= b->n[1]; ++j) out[j - 1] = AT(b, b->u, index, j);
    else
        for (int i = 1; i <= b->n[0]; ++i) out[i - 1] = AT(b, b->u, i, index);
}

static void unpack(block *b, int along_rows, int index, const double *in) {
    if (along_rows)
        for (int j = 1; j <= b->n[1]; ++j) AT(b, b->u, index, j) = in[j - 1];
    else
        for (int i = 1; i <= b->n[0]; ++i) AT(b, b->u, i, index) = in[i - 1];
}

/* Dimension d: send the first interior line to the lower neighbour and the
 * last to the upper one, receive their lines into the ghosts. On the
 * domain's edge the neighbour is MPI_PROC_NULL and the ghost keeps the
 * boundary. */
static void exchange(block *b, MPI_Comm cart) {
    for (int d = 0; d < 2; ++d) {
        int lower, upper;
        MPI_Cart_shift(cart, d, 1, &lower, &upper);
        const int rows = d == 0, count = b->n[1 - d], last = b->n[d];
        MPI_Status st;
        pack(b, rows, last, edge_out);
        MPI_Sendrecv(edge_out, count, MPI_DOUBLE, upper, 10 + d, edge_in, count, MPI_DOUBLE, lower, 10 + d, cart, &st);
        if (lower != MPI_PROC_NULL) unpack(b, rows, 0, edge_in);
        pack(b, rows, 1, edge_out);
        MPI_Sendrecv(edge_out, count, MPI_DOUBLE, lower, 20 + d, edge_in, count, MPI_DOUBLE, upper, 20 + d, cart, &st);
        if (upper != MPI_PROC_NULL) unpack(b, rows, last + 1, edge_in);
    }
}

/* ---- checkpoints --------------------------------------------------------- */

typedef struct ckpt_header {
    char magic[8];
    int iteration, lo[2], n[2];
} ckpt_header;

static void ckpt_path(char *path, size_t len, const options *o, int rank, int slot, const char *suffix) {
    snprintf(path, len, "%s/ckpt.rank%d.%d%s", o->dir, rank, slot, suffix);
}

/* Writes the block's interior as checkpoint `iteration`, into the slot the
 * older of the two checkpoints held; rename makes it appear whole or not at
 * all (a kill in between leaves only the temp file). The file outlives the
 * process; a host crash needs DIR on storage that outlives the host. */
static void ckpt_save(const block *b, const options *o, int rank, int iteration) {
    char tmp[4096], path[4096];
    const int slot = (iteration / o->every) % 2;
    ckpt_path(tmp, sizeof tmp, o, rank, slot, ".tmp");
    ckpt_path(path, sizeof path, o, rank, slot, "");
    FILE *f = fopen(tmp, "wb");
    if (!f) fail("cannot write %s: %s", tmp, strerror(errno));
    ckpt_header h = {"STENCIL", iteration, {b->lo[0], b->lo[1]}, {b->n[0], b->n[1]}};
    int ok = fwrite(&h, sizeof h, 1, f) == 1;
    for (int i = 1; ok && i <= b->n[0]; ++i)
        ok = fwrite(&AT(b, b->u, i, 1), sizeof(double), (size_t)b->n[1], f) == (size_t)b->n[1];
    if (fclose(f) != 0 || !ok) fail("cannot write %s", tmp);
    if (rename(tmp, path) != 0) fail("cannot rename %s to %s: %s", tmp, path, strerror(errno));
}

/* The checkpoint in `slot` of this block's shape: its iteration, or -1. With
 * `load`, its values go into the block. */
static int ckpt_read(block *b, const options *o, int rank, int slot, int load) {
    char path[4096];
    ckpt_path(path, sizeof path, o, rank, slot, "");
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    ckpt_header h;
    int iteration = -1;
    if (fread(&h, sizeof h, 1, f) == 1 && strcmp(h.magic, "STENCIL") == 0 && h.lo[0] == b->lo[0] &&
        h.lo[1] == b->lo[1] && h.n[0] == b->n[0] && h.n[1] == b->n[1]) {
        iteration = h.iteration;
        for (int i = 1; load && iteration >= 0 && i <= b->n[0]; ++i)
            if (fread(&AT(b, b->u, i, 1), sizeof(double), (size_t)b->n[1], f) != (size_t)b->n[1]) iteration = -1;
    }
    fclose(f);
    return iteration;
}

/* The newest checkpoint on disk (0, the initial state, when there is none). */
static int ckpt_newest(block *b, const options *o, int rank) {
    int a = ckpt_read(b, o, rank, 0, 0), c = ckpt_read(b, o, rank, 1, 0);
    return a > c ? (a > 0 ? a : 0) : (c > 0 ? c : 0);
}

/* Puts checkpoint `iteration` into the block (0: the initial state). */
static void ckpt_load(block *b, const options *o, int rank, int iteration) {
    block_init(b, o); /* ghosts on the domain's edge, and the state at 0 */
    if (iteration == 0) return;
    for (int slot = 0; slot < 2; ++slot)
        if (ckpt_read(b, o, rank, slot, 0) == iteration && ckpt_read(b, o, rank, slot, 1) == iteration) return;
    fail("no checkpoint of iteration %d in %s", iteration, o->dir);
}

static void ckpt_remove(const options *o, int rank) {
    char path[4096];
    for (int slot = 0; slot < 2; ++slot) {
        ckpt_path(path, sizeof path, o, rank, slot, "");
        unlink(path);
    }
}

/* ---- the restart flow ---------------------------------------------------- */

static jmp_buf recovery_point;
static volatile int in_recovery;

/* A failure anywhere in the computation goes back to the recovery point;
 * during the recovery itself the calls just return their error. */
static void on_error(MPI_Comm *comm, int *code, ...) {
    (void)comm;
    if (!in_recovery) longjmp(recovery_point, *code);
}

/* What changes between setjmp and longjmp lives here (not in main's locals). */
static MPI_Comm work = MPI_COMM_NULL, cart = MPI_COMM_NULL;
static int iteration, newest_ckpt, recoveries;
static double error_seen, started; /* started: when the first recovery point passed */

static void free_comms(void) {
    if (cart != MPI_COMM_NULL) MPI_Comm_free(&cart);
    if (work != MPI_COMM_NULL) MPI_Comm_free(&work);
    cart = work = MPI_COMM_NULL;
}

/* The first rank of comm that is a gap (a REBUILD that could not replace
 * it: its group entry translates to MPI_UNDEFINED), or -1. */
static int first_gap(MPI_Comm comm) {
    int size = 0, gap = -1;
    MPI_Group group;
    MPI_Comm_size(comm, &size);
    MPI_Comm_group(comm, &group);
    for (int r = 0; r < size && gap < 0; ++r) {
        int same = MPI_UNDEFINED;
        MPI_Group_translate_ranks(group, 1, &r, group, &same);
        if (same == MPI_UNDEFINED) gap = r;
    }
    MPI_Group_free(&group);
    return gap;
}

/* The recovered communicator with its Cartesian view, and the iteration all
 * ranks can go back to; a failure during these steps starts them again. A
 * rank that could not be replaced leaves a hole in the grid no rollback can
 * mend: the job gives up instead of failing at every iteration. */
static int recover(const int dims[2], MPI_Errhandler eh) {
    const int periods[2] = {0, 0};
    for (int tries = 0; tries < 16; ++tries) {
        free_comms();
        if (MPI_Comm_dup(MPI_COMM_WORLD, &work) != MPI_SUCCESS) continue;
        const double recovered = MPI_Wtime();
        const int gap = first_gap(work);
        if (gap >= 0) fail("rank %d could not be replaced (a gap after the recovery); giving up", gap);
        if (MPI_Cart_create(work, 2, (int *)dims, (int *)periods, 0, &cart) != MPI_SUCCESS) continue;
        MPI_Comm_set_errhandler(cart, eh);
        int from = 0;
        if (MPI_Allreduce(&newest_ckpt, &from, 1, MPI_INT, MPI_MIN, cart) != MPI_SUCCESS) continue;
        if (recoveries > 0)
            printf("rank %d recovered in %.3f ms (error seen -> MPI_Comm_dup returned), back to iteration %d\n",
                   world_rank, (recovered - error_seen) * 1e3, from);
        return from;
    }
    fail("no recovery after 16 tries");
    return 0;
}

static void sleep_ms(int ms) {
    struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

static void write_pid(const options *o, int rank) {
    char path[4096];
    snprintf(path, sizeof path, "%s/rank%d.pid", o->dir, rank);
    FILE *f = fopen(path, "w");
    if (!f || fprintf(f, "%d\n", (int)getpid()) < 0 || fclose(f) != 0) fail("cannot write %s", path);
}

static const char *host_id(void) {
    static char name[256];
    const char *id = getenv("FTMPI_HOST_ID");
    if (id && *id) return id;
    id = getenv("HARNESS_MEMBER");
    if (id && *id) return id;
    if (gethostname(name, sizeof name - 1) != 0) strcpy(name, "?");
    return name;
}

/* Rank 0 gathers the grid, computes the failure-free answer serially and
 * compares; returns 0 when equal (every point, bit for bit: the same
 * operations in the same order), 1 otherwise. Others send their block. */
static int compare_with_serial(block *b, const options *o, const int dims[2], double seconds) {
    const int nx = o->size[0], ny = o->size[1];
    const int count = b->n[0] * b->n[1];
    double *mine = malloc((size_t)count * sizeof(double));
    if (!mine) fail("out of memory");
    for (int i = 0; i < b->n[0]; ++i)
        for (int j = 0; j < b->n[1]; ++j) mine[i * b->n[1] + j] = AT(b, b->u, i + 1, j + 1);
    int size;
    MPI_Comm_size(cart, &size);
    if (world_rank != 0) {
        MPI_Send(mine, count, MPI_DOUBLE, 0, 30, cart);
        free(mine);
        return 0;
    }
    double *grid = malloc((size_t)nx * (size_t)ny * sizeof(double));
    if (!grid) fail("out of memory for the %dx%d grid", nx, ny);
    for (int r = 0; r < size; ++r) {
        int coords[2], lo[2], n[2];
        MPI_Cart_coords(cart, r, 2, coords);
        for (int d = 0; d < 2; ++d) split(o->size[d], dims[d], coords[d], &lo[d], &n[d]);
        double *part = mine;
        if (r != 0) {
            part = malloc((size_t)n[0] * (size_t)n[1] * sizeof(double));
            if (!part) fail("out of memory");
            MPI_Recv(part, n[0] * n[1], MPI_DOUBLE, r, 30, cart, MPI_STATUS_IGNORE);
        }
        for (int i = 0; i < n[0]; ++i)
            for (int j = 0; j < n[1]; ++j)
                grid[(size_t)(lo[0] - 1 + i) * (size_t)ny + (size_t)(lo[1] - 1 + j)] = part[i * n[1] + j];
        if (part != mine) free(part);
    }
    free(mine);

    block whole;
    const int one[2] = {1, 1}, origin[2] = {0, 0};
    block_alloc(&whole, o, one, origin);
    block_init(&whole, o);
    for (int it = 0; it < o->iters; ++it) sweep(&whole);
    double *serial = malloc((size_t)nx * (size_t)ny * sizeof(double));
    if (!serial) fail("out of memory");
    long differ = 0;
    for (int i = 0; i < nx; ++i)
        for (int j = 0; j < ny; ++j) {
            serial[(size_t)i * (size_t)ny + (size_t)j] = AT(&whole, whole.u, i + 1, j + 1);
            differ += serial[(size_t)i * (size_t)ny + (size_t)j] != grid[(size_t)i * (size_t)ny + (size_t)j];
        }
    printf("stencil %dx%d on %dx%d ranks, %d iterations in %.3f s, %d recoveries: checksum %.17g, failure-free "
           "%.17g: %s\n",
           nx, ny, dims[0], dims[1], o->iters, seconds, recoveries, checksum(grid, nx, ny), checksum(serial, nx, ny),
           differ ? "WRONG" : "correct");
    if (differ) printf("%ld of %d points differ from the failure-free run\n", differ, nx * ny);
    free(grid);
    free(serial);
    free(whole.u);
    free(whole.v);
    return differ != 0;
}

int main(int argc, char **argv) {
    const int rc = MPI_Init(&argc, &argv);
    int restarted = 0;
#ifdef MPI_INIT_RESTARTED_NODE
    restarted = rc == MPI_INIT_RESTARTED_NODE;
#endif
    if (rc != MPI_SUCCESS && !restarted) {
        fprintf(stderr, "stencil_rebuild: MPI_Init returned %d\n", rc);
        return 1;
    }
    int size;
    MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    options o;
    const char *bad = parse_options(argc, argv, &o);
    if (bad) {
        if (world_rank == 0) fprintf(stderr, "stencil_rebuild: %s\n", bad);
        MPI_Finalize();
        return 2;
    }
    int dims[2] = {o.dims[0], o.dims[1]};
    if (dims[0] * dims[1] != 0 && dims[0] * dims[1] != size) {
        if (world_rank == 0)
            fprintf(stderr, "stencil_rebuild: --dims %dx%d is %d ranks, the job has %d\n", dims[0], dims[1],
                    dims[0] * dims[1], size);
        MPI_Finalize();
        return 2;
    }
    if (dims[0] * dims[1] == 0) MPI_Dims_create(size, 2, dims);
    if (o.size[0] < dims[0] || o.size[1] < dims[1]) {
        if (world_rank == 0)
            fprintf(stderr, "stencil_rebuild: a %dx%d grid cannot be split over %dx%d ranks\n", o.size[0], o.size[1],
                    dims[0], dims[1]);
        MPI_Finalize();
        return 2;
    }
    if (mkdir(o.dir, 0755) != 0 && errno != EEXIST) fail("cannot make %s: %s", o.dir, strerror(errno));

    const char *inc = getenv("FTMPI_INCARNATION");
    const int incarnation = inc && *inc ? atoi(inc) : 0;
    write_pid(&o, world_rank);
    printf("rank %d incarnation %d host %s\n", world_rank, incarnation, host_id());
    fflush(stdout);

    /* MPI's Cartesian order: row-major, the last dimension fastest. */
    const int coords[2] = {world_rank / dims[1], world_rank % dims[1]};
    block b;
    block_alloc(&b, &o, dims, coords);
    edge_out = malloc((size_t)(b.n[0] > b.n[1] ? b.n[0] : b.n[1]) * sizeof(double));
    edge_in = malloc((size_t)(b.n[0] > b.n[1] ? b.n[0] : b.n[1]) * sizeof(double));
    if (!edge_out || !edge_in) fail("out of memory");
    if (restarted) {
        newest_ckpt = ckpt_newest(&b, &o, world_rank);
        printf("rank %d incarnation %d: replacement (MPI_INIT_RESTARTED_NODE), newest checkpoint at iteration %d\n",
               world_rank, incarnation, newest_ckpt);
    } else {
        ckpt_remove(&o, world_rank); /* an earlier job's */
        newest_ckpt = 0;
    }

    MPI_Errhandler eh;
    MPI_Comm_create_errhandler(on_error, &eh);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh);

    if (setjmp(recovery_point) != 0) {
        ++recoveries;
        error_seen = MPI_Wtime();
        printf("rank %d: failure seen at iteration %d, recovering\n", world_rank, iteration);
        fflush(stdout);
    }
    in_recovery = 1;
    iteration = recover(dims, eh);
    in_recovery = 0;
    if (started == 0.0) started = MPI_Wtime();
    ckpt_load(&b, &o, world_rank, iteration);

    while (iteration < o.iters) {
        exchange(&b, cart);
        double change = sweep(&b), total = 0.0;
        MPI_Allreduce(&change, &total, 1, MPI_DOUBLE, MPI_SUM, cart);
        ++iteration;
        if (o.sleep_ms > 0) sleep_ms(o.sleep_ms);
        if (iteration % o.every == 0) {
            ckpt_save(&b, &o, world_rank, iteration);
            newest_ckpt = iteration;
        }
        if (world_rank == 0 && (iteration % 50 == 0 || iteration == o.iters))
            printf("iteration %d of %d, change %.6g\n", iteration, o.iters, total);
    }
    const int wrong = compare_with_serial(&b, &o, dims, MPI_Wtime() - started);
    fflush(stdout);

    in_recovery = 1; /* a failure now changes nothing: the answer is out */
    free_comms();
    MPI_Errhandler_free(&eh);
    free(b.u);
    free(b.v);
    free(edge_out);
    free(edge_in);
    MPI_Finalize();
    return wrong;
}
