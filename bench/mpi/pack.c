/* MPI_Pack / MPI_Unpack throughput of a 93-element
 * mixed struct (ints, doubles, chars and floats with padding holes; 604 B
 * of data in a 616 B C struct), against a hand-written memcpy pack of the
 * same fields in the same run. Plain MPI: builds with libftmpi, Open MPI and
 * MPICH. One rank is enough; every rank measures alone.
 *
 * A sample is k back-to-back packs (k chosen so a sample lasts about
 * BENCH_SAMPLE_MS, 2 ms by default); BENCH_SAMPLES (15) samples per point.
 * Reported in MB/s of packed data (1 MB = 10^6 B), median and p10/p90.
 *
 * Sizes are element counts: BENCH_SIZES="64,1024,16384" (the default:
 * 39 KB … 9.9 MB packed); counts below 1 are skipped.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

struct record {
    int i1[8];
    double d1[20];
    char c1[3];
    float f1[12];
    double d2[25];
    char c2;
    int i2[8];
    double d3[16];
};

#define FIELDS 8

static MPI_Datatype record_type(void) {
    int bl[FIELDS] = {8, 20, 3, 12, 25, 1, 8, 16};
    MPI_Aint disp[FIELDS] = {offsetof(struct record, i1), offsetof(struct record, d1), offsetof(struct record, c1),
                             offsetof(struct record, f1), offsetof(struct record, d2), offsetof(struct record, c2),
                             offsetof(struct record, i2), offsetof(struct record, d3)};
    MPI_Datatype types[FIELDS] = {MPI_INT, MPI_DOUBLE, MPI_CHAR, MPI_FLOAT, MPI_DOUBLE, MPI_CHAR, MPI_INT, MPI_DOUBLE};
    MPI_Datatype t, resized;
    MPI_Type_create_struct(FIELDS, bl, disp, types, &t);
    MPI_Type_create_resized(t, 0, sizeof(struct record), &resized);
    MPI_Type_free(&t);
    MPI_Type_commit(&resized);
    return resized;
}

/* What a programmer would write by hand: one memcpy per field. */
static void hand_pack(const struct record *in, int count, char *out) {
    for (int e = 0; e < count; ++e) {
        const struct record *r = &in[e];
        memcpy(out, r->i1, sizeof r->i1), out += sizeof r->i1;
        memcpy(out, r->d1, sizeof r->d1), out += sizeof r->d1;
        memcpy(out, r->c1, sizeof r->c1), out += sizeof r->c1;
        memcpy(out, r->f1, sizeof r->f1), out += sizeof r->f1;
        memcpy(out, r->d2, sizeof r->d2), out += sizeof r->d2;
        memcpy(out, &r->c2, sizeof r->c2), out += sizeof r->c2;
        memcpy(out, r->i2, sizeof r->i2), out += sizeof r->i2;
        memcpy(out, r->d3, sizeof r->d3), out += sizeof r->d3;
    }
}

enum method { PACK, UNPACK, HAND };

static void run(enum method m, MPI_Datatype t, struct record *recs, int count, char *buf, int bytes) {
    int pos = 0;
    if (m == PACK)
        MPI_Pack(recs, count, t, buf, bytes, &pos, MPI_COMM_SELF);
    else if (m == UNPACK)
        MPI_Unpack(buf, bytes, &pos, recs, count, t, MPI_COMM_SELF);
    else
        hand_pack(recs, count, buf);
}

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Datatype t = record_type();
    int packed_one;
    MPI_Type_size(t, &packed_one);
    if (packed_one != 604) {
        fprintf(stderr, "pack: the record type has %d bytes of data, expected 604\n", packed_one);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    const long defaults[] = {64, 1024, 16384};
    long counts[16];
    const int ncounts = bench_sizes(defaults, 3, counts, 16);
    const int samples = (int)bench_env_double("BENCH_SAMPLES", 15);
    const double sample_s = bench_env_double("BENCH_SAMPLE_MS", 2) / 1000;
    const char *names[] = {"pack_struct93", "unpack_struct93", "hand_memcpy_struct93"};

    for (int c = 0; c < ncounts; ++c) {
        const int count = (int)counts[c];
        if (count < 1) continue;
        int bytes;
        MPI_Pack_size(count, t, MPI_COMM_SELF, &bytes);
        struct record *recs = malloc(sizeof(struct record) * (size_t)count);
        char *buf = malloc((size_t)bytes);
        memset(recs, 1, sizeof(struct record) * (size_t)count);
        memset(buf, 2, (size_t)bytes);
        for (int m = PACK; m <= HAND; ++m) {
            /* Warm up and pick k so a sample lasts about sample_s. */
            int k = 1;
            for (;;) {
                double t0 = MPI_Wtime();
                for (int i = 0; i < k; ++i) run((enum method)m, t, recs, count, buf, bytes);
                if (MPI_Wtime() - t0 >= sample_s || k >= (1 << 20)) break;
                k *= 2;
            }
            double *mbs = malloc(sizeof(double) * (size_t)samples);
            for (int s = 0; s < samples; ++s) {
                double t0 = MPI_Wtime();
                for (int i = 0; i < k; ++i) run((enum method)m, t, recs, count, buf, bytes);
                double dt = (MPI_Wtime() - t0) / k;
                mbs[s] = bytes / dt / 1e6;
            }
            if (rank == 0) bench_report(names[m], size, bytes, "MB/s", mbs, samples);
            free(mbs);
        }
        free(recs);
        free(buf);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
