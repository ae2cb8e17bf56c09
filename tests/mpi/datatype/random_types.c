/* Random nested derived types, checked element by element against a
 * reference type map that is rebuilt from MPI_Type_get_envelope/contents
 * (so it knows nothing of the library's compacted representation):
 * MPI_Pack must produce exactly the referenced bytes in order, a message of
 * the type received as MPI_BYTE must too, receiving with the type must write
 * exactly the referenced bytes, and Get_elements must count the basic
 * elements. Every rank builds the same types (same seeds) and sends to the
 * next rank. (Debian's Open MPI 4.1 fails seed 93, a vector of chars with
 * stride -1: its packed bytes differ from type-map order; ours pass.) */
#include "support/check.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define SEEDS 150

typedef struct {
    MPI_Aint disp;
    int size;
} entry;

typedef struct {
    entry *e;
    int n, cap;
} typemap;

static void push(typemap *m, MPI_Aint disp, int size) {
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 64;
        m->e = realloc(m->e, sizeof(entry) * (size_t)m->cap);
        CHECK(m->e, "out of memory");
    }
    m->e[m->n].disp = disp;
    m->e[m->n].size = size;
    m->n++;
}

static MPI_Aint extent_of(MPI_Datatype t) {
    MPI_Aint lb, ext;
    MPI_Type_get_extent(t, &lb, &ext);
    return ext;
}

/* Appends the basic elements of one `t` placed at `base`. */
static void reference(MPI_Datatype t, MPI_Aint base, typemap *m) {
    int ni, na, nd, combiner;
    CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
    if (combiner == MPI_COMBINER_NAMED) {
        if (t == MPI_DOUBLE_INT) {
            push(m, base, sizeof(double));
            push(m,
                 base +
                     offsetof(
                         struct {
                             double v;
                             int i;
                         },
                         i),
                 sizeof(int));
        } else if (t == MPI_SHORT_INT) {
            push(m, base, sizeof(short));
            push(m,
                 base +
                     offsetof(
                         struct {
                             short v;
                             int i;
                         },
                         i),
                 sizeof(int));
        } else {
            int size;
            MPI_Type_size(t, &size);
            push(m, base, size);
        }
        return;
    }
    int *ints = malloc(sizeof(int) * (size_t)(ni + 1));
    MPI_Aint *aints = malloc(sizeof(MPI_Aint) * (size_t)(na + 1));
    MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)(nd + 1));
    CHECK_MPI(MPI_Type_get_contents(t, ni, na, nd, ints, aints, types));
    const MPI_Aint ext = nd > 0 ? extent_of(types[0]) : 0;
    switch (combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED: reference(types[0], base, m); break;
    case MPI_COMBINER_CONTIGUOUS:
        for (int k = 0; k < ints[0]; ++k) reference(types[0], base + k * ext, m);
        break;
    case MPI_COMBINER_VECTOR:
        for (int j = 0; j < ints[0]; ++j)
            for (int k = 0; k < ints[1]; ++k) reference(types[0], base + ((MPI_Aint)j * ints[2] + k) * ext, m);
        break;
    case MPI_COMBINER_HVECTOR:
        for (int j = 0; j < ints[0]; ++j)
            for (int k = 0; k < ints[1]; ++k) reference(types[0], base + j * aints[0] + k * ext, m);
        break;
    case MPI_COMBINER_INDEXED:
        for (int i = 0; i < ints[0]; ++i)
            for (int k = 0; k < ints[1 + i]; ++k)
                reference(types[0], base + ((MPI_Aint)ints[1 + ints[0] + i] + k) * ext, m);
        break;
    case MPI_COMBINER_HINDEXED:
        for (int i = 0; i < ints[0]; ++i)
            for (int k = 0; k < ints[1 + i]; ++k) reference(types[0], base + aints[i] + k * ext, m);
        break;
    case MPI_COMBINER_INDEXED_BLOCK:
        for (int i = 0; i < ints[0]; ++i)
            for (int k = 0; k < ints[1]; ++k) reference(types[0], base + ((MPI_Aint)ints[2 + i] + k) * ext, m);
        break;
    case MPI_COMBINER_STRUCT:
        for (int i = 0; i < ints[0]; ++i)
            for (int k = 0; k < ints[1 + i]; ++k) reference(types[i], base + aints[i] + k * extent_of(types[i]), m);
        break;
    case MPI_COMBINER_SUBARRAY: {
        /* 2-D only here (the generator makes no others), either order. */
        const int *sizes = &ints[1], *subs = &ints[3], *starts = &ints[5];
        const int c_order = ints[7] == MPI_ORDER_C;
        for (int a = 0; a < subs[c_order ? 0 : 1]; ++a)
            for (int b = 0; b < subs[c_order ? 1 : 0]; ++b) {
                MPI_Aint off;
                if (c_order)
                    off = (MPI_Aint)(starts[0] + a) * sizes[1] + (starts[1] + b);
                else
                    off = (MPI_Aint)(starts[1] + a) * sizes[0] + (starts[0] + b);
                reference(types[0], base + off * ext, m);
            }
        break;
    }
    default: CHECK(0, "unexpected combiner %d", combiner);
    }
    for (int i = 0; i < nd; ++i) {
        int ci, ca, cd, cc;
        MPI_Type_get_envelope(types[i], &ci, &ca, &cd, &cc);
        if (cc != MPI_COMBINER_NAMED) MPI_Type_free(&types[i]);
    }
    free(ints);
    free(aints);
    free(types);
}

/* A small deterministic generator (the same on every rank). */
static uint64_t rng_state;
static int pick(int lo, int hi) {
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return lo + (int)((rng_state >> 33) % (uint64_t)(hi - lo + 1));
}

static MPI_Datatype random_type(int depth) {
    MPI_Datatype b[] = {MPI_CHAR,  MPI_SHORT,      MPI_INT,       MPI_DOUBLE,
                        MPI_FLOAT, MPI_DOUBLE_INT, MPI_SHORT_INT, MPI_INT64_T};
    if (depth == 0) return b[pick(0, 7)];
    MPI_Datatype old = random_type(depth - 1), t = MPI_DATATYPE_NULL;
    switch (pick(0, 9)) {
    case 0: CHECK_MPI(MPI_Type_contiguous(pick(0, 4), old, &t)); break;
    case 1: CHECK_MPI(MPI_Type_vector(pick(0, 4), pick(0, 3), pick(-3, 6), old, &t)); break;
    case 2: CHECK_MPI(MPI_Type_create_hvector(pick(1, 4), pick(1, 3), pick(-40, 60), old, &t)); break;
    case 3: {
        int n = pick(1, 4), bl[4], disp[4];
        for (int i = 0; i < n; ++i) bl[i] = pick(0, 3), disp[i] = pick(-3, 8);
        CHECK_MPI(MPI_Type_indexed(n, bl, disp, old, &t));
        break;
    }
    case 4: {
        int n = pick(1, 4), bl[4];
        MPI_Aint disp[4];
        for (int i = 0; i < n; ++i) bl[i] = pick(0, 3), disp[i] = pick(-50, 100);
        CHECK_MPI(MPI_Type_create_hindexed(n, bl, disp, old, &t));
        break;
    }
    case 5: {
        int n = pick(1, 4), disp[4];
        for (int i = 0; i < n; ++i) disp[i] = pick(0, 10);
        CHECK_MPI(MPI_Type_create_indexed_block(n, pick(0, 3), disp, old, &t));
        break;
    }
    case 6: {
        MPI_Datatype second = random_type(depth - 1);
        int bl[3] = {pick(0, 2), pick(1, 2), pick(1, 3)};
        MPI_Aint disp[3] = {pick(-20, 20), pick(0, 80), pick(100, 200)};
        MPI_Datatype types[3] = {old, second, b[pick(0, 7)]};
        CHECK_MPI(MPI_Type_create_struct(3, bl, disp, types, &t));
        int ci, ca, cd, cc;
        MPI_Type_get_envelope(second, &ci, &ca, &cd, &cc);
        if (cc != MPI_COMBINER_NAMED) MPI_Type_free(&second);
        break;
    }
    case 7: CHECK_MPI(MPI_Type_create_resized(old, pick(-16, 16), pick(1, 64), &t)); break;
    case 8: {
        int sizes[2] = {pick(1, 4), pick(1, 5)}, subs[2], starts[2];
        for (int d = 0; d < 2; ++d) subs[d] = pick(1, sizes[d]), starts[d] = pick(0, sizes[d] - subs[d]);
        CHECK_MPI(
            MPI_Type_create_subarray(2, sizes, subs, starts, pick(0, 1) ? MPI_ORDER_C : MPI_ORDER_FORTRAN, old, &t));
        break;
    }
    default: CHECK_MPI(MPI_Type_dup(old, &t)); break;
    }
    int ci, ca, cd, cc;
    MPI_Type_get_envelope(old, &ci, &ca, &cd, &cc);
    if (cc != MPI_COMBINER_NAMED) MPI_Type_free(&old);
    return t;
}

static unsigned char pattern(long i, int rank, int seed) {
    return (unsigned char)(i * 131 + rank * 7 + seed);
}

int main(int argc, char **argv) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int next = (rank + 1) % size, prev = (rank + size - 1) % size;

    for (int seed = 1; seed <= SEEDS; ++seed) {
        rng_state = (uint64_t)seed * 0x9E3779B97F4A7C15ULL;
        MPI_Datatype t = random_type(1 + seed % 3);
        const int count = pick(1, 3);
        CHECK_MPI(MPI_Type_commit(&t));
        typemap m = {0};
        reference(t, 0, &m);
        const MPI_Aint ext = extent_of(t);

        /* The bytes the elements touch, relative to the buffer origin. */
        MPI_Aint lo = 0, hi = 0;
        long packed = 0;
        for (int e = 0; e < count; ++e)
            for (int i = 0; i < m.n; ++i) {
                const MPI_Aint at = e * ext + m.e[i].disp;
                if (at < lo) lo = at;
                if (at + m.e[i].size > hi) hi = at + m.e[i].size;
                packed += m.e[i].size;
            }
        const size_t span = (size_t)(hi - lo) + 1;
        unsigned char *mine = malloc(span), *theirs = malloc(span), *got = malloc(span), *want = malloc(span);
        unsigned char *ref_mine = malloc((size_t)packed + 1), *ref_theirs = malloc((size_t)packed + 1);
        unsigned char *buf = malloc((size_t)packed + 1);
        for (size_t i = 0; i < span; ++i)
            mine[i] = pattern((long)i, rank, seed), theirs[i] = pattern((long)i, prev, seed);
        long at = 0;
        for (int e = 0; e < count; ++e)
            for (int i = 0; i < m.n; ++i) {
                memcpy(ref_mine + at, mine + (e * ext + m.e[i].disp - lo), (size_t)m.e[i].size);
                memcpy(ref_theirs + at, theirs + (e * ext + m.e[i].disp - lo), (size_t)m.e[i].size);
                at += m.e[i].size;
            }

        /* MPI_Pack gives the referenced bytes in order. */
        int psize, pos = 0;
        CHECK_MPI(MPI_Pack_size(count, t, MPI_COMM_WORLD, &psize));
        CHECK(psize >= packed, "seed %d: Pack_size %d < %ld", seed, psize, packed);
        unsigned char *pbuf = malloc((size_t)psize + 1);
        CHECK_MPI(MPI_Pack(mine - lo, count, t, pbuf, psize, &pos, MPI_COMM_WORLD));
        CHECK(pos == packed && memcmp(pbuf, ref_mine, (size_t)packed) == 0, "seed %d: packed bytes differ", seed);
        free(pbuf);

        /* Sent with the type, received as bytes: the neighbour's referenced bytes. */
        MPI_Status st;
        CHECK_MPI(
            MPI_Sendrecv(mine - lo, count, t, next, seed, buf, (int)packed, MPI_BYTE, prev, seed, MPI_COMM_WORLD, &st));
        CHECK(memcmp(buf, ref_theirs, (size_t)packed) == 0, "seed %d: received bytes differ", seed);

        /* Sent as bytes, received with the type: exactly the referenced bytes written. */
        memset(got, 0, span);
        memset(want, 0, span);
        at = 0;
        for (int e = 0; e < count; ++e)
            for (int i = 0; i < m.n; ++i) {
                memcpy(want + (e * ext + m.e[i].disp - lo), ref_theirs + at, (size_t)m.e[i].size);
                at += m.e[i].size;
            }
        CHECK_MPI(MPI_Sendrecv(ref_mine, (int)packed, MPI_BYTE, next, seed, got - lo, count, t, prev, seed,
                               MPI_COMM_WORLD, &st));
        CHECK(memcmp(got, want, span) == 0, "seed %d: received into the type wrong", seed);
        int elements;
        CHECK_MPI(MPI_Get_elements(&st, t, &elements));
        CHECK(elements == count * m.n, "seed %d: Get_elements %d, reference %d", seed, elements, count * m.n);

        free(mine), free(theirs), free(got), free(want), free(ref_mine), free(ref_theirs), free(buf), free(m.e);
        CHECK_MPI(MPI_Type_free(&t));
    }
    MPI_Finalize();
    return 0;
}
