/* Counts, sizes and extents past INT_MAX (MPI-4 `_c` calls, MPI_Count
 * queries) in little memory:
 *
 *   1. a type of more than INT_MAX bytes from MPI_Type_contiguous_c: its
 *      size, MPI_Pack_size_c, and a status set to one element of it, read
 *      back with the int calls (MPI_UNDEFINED) and the _x/_c ones (exact);
 *      a subarray of a 3 GiB array (MPI_Type_create_subarray_c): bounds,
 *      envelope and contents;
 *   2. a type whose extent passes INT_MAX (two ints 3 GiB apart, in a
 *      reserved, untouched mapping) sent and received between two ranks;
 *   3. one message of more than INT_MAX bytes, MPI_Send_c/MPI_Recv_c with a
 *      count past INT_MAX. The sender's buffer is a mapping it reads but
 *      never writes except a few marker bytes (the kernel backs the rest
 *      with its zero page); the receiver needs the 2 GiB for real, so this
 *      part runs only when /proc/meminfo shows 3 GiB available, and says
 *      SKIPPED otherwise.
 *
 * Parts 2 and 3 run on 2 ranks; with 1, part 1 runs alone. */
#include "support/check.h"

#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

static const MPI_Count past_int = (MPI_Count)INT_MAX + 4097;

/* `bytes` of address space, reserved without memory behind it. */
static char *reserve(size_t bytes) {
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    CHECK(p != MAP_FAILED, "mmap of %zu bytes failed", bytes);
    return p;
}

/* MemAvailable of /proc/meminfo in bytes (0 if unknown). */
static unsigned long long available_memory(void) {
    FILE *f = fopen("/proc/meminfo", "r");
    if (!f) return 0;
    char line[256];
    unsigned long long kib = 0;
    while (fgets(line, sizeof line, f))
        if (sscanf(line, "MemAvailable: %llu kB", &kib) == 1) break;
    fclose(f);
    return kib * 1024;
}

static void large_type_queries(void) {
    MPI_Datatype big;
    CHECK_MPI(MPI_Type_contiguous_c(past_int, MPI_CHAR, &big));
    CHECK_MPI(MPI_Type_commit(&big));
    int size = 0;
    MPI_Count size_c = 0, lb = -1, extent = 0, packed = 0;
    CHECK_MPI(MPI_Type_size(big, &size));
    CHECK(size == MPI_UNDEFINED, "MPI_Type_size of %lld bytes gave %d", (long long)past_int, size);
    CHECK_MPI(MPI_Type_size_c(big, &size_c));
    CHECK_MPI(MPI_Type_get_extent_c(big, &lb, &extent));
    CHECK(size_c == past_int && lb == 0 && extent == past_int, "size_c %lld lb %lld extent %lld", (long long)size_c,
          (long long)lb, (long long)extent);
    CHECK_MPI(MPI_Pack_size_c(2, big, MPI_COMM_WORLD, &packed));
    CHECK(packed == 2 * past_int, "MPI_Pack_size_c %lld", (long long)packed);

    /* One element of `big` is past_int basic elements (chars). */
    MPI_Status status;
    int count = 0, elements = 0;
    MPI_Count elements_x = 0, count_c = 0;
    CHECK_MPI(MPI_Status_set_elements_x(&status, MPI_CHAR, past_int));
    CHECK_MPI(MPI_Get_count(&status, big, &count));
    CHECK_MPI(MPI_Get_elements(&status, big, &elements));
    CHECK_MPI(MPI_Get_elements_x(&status, big, &elements_x));
    CHECK_MPI(MPI_Get_count_c(&status, MPI_CHAR, &count_c));
    CHECK(count == 1 && elements == MPI_UNDEFINED && elements_x == past_int && count_c == past_int,
          "status of %lld chars: count %d elements %d elements_x %lld count_c %lld", (long long)past_int, count,
          elements, (long long)elements_x, (long long)count_c);
    CHECK_MPI(MPI_Status_set_elements_x(&status, big, past_int));
    CHECK_MPI(MPI_Get_count(&status, big, &count));
    CHECK(count == 1, "MPI_Status_set_elements_x(big, %lld) then MPI_Get_count: %d", (long long)past_int, count);
    CHECK_MPI(MPI_Type_free(&big));

    /* The last 4 chars of a 3 GiB array: a subarray whose sizes and start
     * no int holds, kept as large counts (ndims and order stay ints). */
    const MPI_Count sizes[1] = {(MPI_Count)3 << 30}, subsizes[1] = {4}, starts[1] = {((MPI_Count)3 << 30) - 4};
    MPI_Datatype tail;
    CHECK_MPI(MPI_Type_create_subarray_c(1, sizes, subsizes, starts, MPI_ORDER_C, MPI_CHAR, &tail));
    MPI_Count true_lb = 0, true_extent = 0;
    CHECK_MPI(MPI_Type_size_c(tail, &size_c));
    CHECK_MPI(MPI_Type_get_extent_c(tail, &lb, &extent));
    CHECK_MPI(MPI_Type_get_true_extent_c(tail, &true_lb, &true_extent));
    CHECK(size_c == 4 && lb == 0 && extent == sizes[0] && true_lb == starts[0] && true_extent == 4,
          "subarray_c: size %lld extent %lld true lb %lld", (long long)size_c, (long long)extent, (long long)true_lb);
    MPI_Count ni = 0, na = 0, nc = 0, nd = 0;
    int combiner = 0, ints[2] = {0, 0};
    MPI_Count counts[3] = {0, 0, 0};
    MPI_Datatype old = MPI_DATATYPE_NULL;
    CHECK_MPI(MPI_Type_get_envelope_c(tail, &ni, &na, &nc, &nd, &combiner));
    CHECK(combiner == MPI_COMBINER_SUBARRAY && ni == 2 && na == 0 && nc == 3 && nd == 1,
          "subarray_c envelope: %lld ints %lld addresses %lld large counts %lld types", (long long)ni, (long long)na,
          (long long)nc, (long long)nd);
    CHECK_MPI(MPI_Type_get_contents_c(tail, 2, 0, 3, 1, ints, NULL, counts, &old));
    CHECK(ints[0] == 1 && ints[1] == MPI_ORDER_C && counts[0] == sizes[0] && counts[1] == 4 && counts[2] == starts[0] &&
              old == MPI_CHAR,
          "subarray_c contents");
    CHECK_MPI(MPI_Type_free(&tail));
}

/* Two ints 3 GiB apart: an extent no int holds, 8 bytes of data. */
static void wide_type_exchange(int rank) {
    const MPI_Count stride = (MPI_Count)3 << 30;
    MPI_Datatype wide;
    CHECK_MPI(MPI_Type_create_hvector_c(2, 1, stride, MPI_INT, &wide));
    CHECK_MPI(MPI_Type_commit(&wide));
    MPI_Count lb = -1, extent = 0;
    CHECK_MPI(MPI_Type_get_extent_c(wide, &lb, &extent));
    CHECK(extent == stride + (MPI_Count)sizeof(int), "hvector extent %lld", (long long)extent);
    const size_t span = (size_t)extent;
    char *buf = reserve(span);
    int *first = (int *)buf, *second = (int *)(buf + stride);
    if (rank == 0) {
        *first = 11;
        *second = 22;
        CHECK_MPI(MPI_Send_c(buf, 1, wide, 1, 1, MPI_COMM_WORLD));
    } else {
        MPI_Status status;
        MPI_Count bytes = 0;
        CHECK_MPI(MPI_Recv_c(buf, 1, wide, 0, 1, MPI_COMM_WORLD, &status));
        CHECK_MPI(MPI_Get_elements_x(&status, MPI_BYTE, &bytes));
        CHECK(*first == 11 && *second == 22 && bytes == 8, "wide type received %d %d (%lld bytes)", *first, *second,
              (long long)bytes);
    }
    munmap(buf, span);
    CHECK_MPI(MPI_Type_free(&wide));
}

/* Marker bytes at these offsets of the large message; the rest is zero. */
static const size_t marks[] = {
    0, 1, 4095, 4096, (size_t)INT_MAX - 1, (size_t)INT_MAX, (size_t)INT_MAX + 1, (size_t)INT_MAX + 4096};

static int large_message_possible(void) {
    const unsigned long long needed = 3ULL << 30;
    const unsigned long long have = available_memory();
    int ok = have >= needed;
    MPI_Allreduce(MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
    if (!ok) {
        int rank;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        if (rank == 0)
            printf("SKIPPED: the message of %lld bytes (needs 3 GiB available, /proc/meminfo shows %llu MiB)\n",
                   (long long)past_int, have >> 20);
    }
    return ok;
}

static void large_message(int rank) {
    const size_t bytes = (size_t)past_int;
    const size_t nmarks = sizeof marks / sizeof marks[0];
    char *buf = reserve(bytes);
    if (rank == 0) {
        for (size_t i = 0; i < nmarks; ++i) buf[marks[i]] = (char)(i + 1);
        CHECK_MPI(MPI_Send_c(buf, past_int, MPI_CHAR, 1, 2, MPI_COMM_WORLD));
    } else {
        MPI_Status status;
        int count = 0;
        MPI_Count count_c = 0;
        memset(buf, 0x5a, bytes); /* so a byte never written shows */
        CHECK_MPI(MPI_Recv_c(buf, past_int, MPI_CHAR, 0, 2, MPI_COMM_WORLD, &status));
        CHECK_MPI(MPI_Get_count(&status, MPI_CHAR, &count));
        CHECK_MPI(MPI_Get_count_c(&status, MPI_CHAR, &count_c));
        CHECK(count == MPI_UNDEFINED && count_c == past_int, "large message: count %d count_c %lld", count,
              (long long)count_c);
        /* The marks, then everything else is zero (compared a MiB at a time). */
        for (size_t i = 0; i < nmarks; ++i) {
            CHECK(buf[marks[i]] == (char)(i + 1), "byte %zu of the large message is %d, expected %d", marks[i],
                  buf[marks[i]], (int)(i + 1));
            buf[marks[i]] = 0;
        }
        static const char zeros[1 << 20];
        for (size_t at = 0; at < bytes; at += sizeof zeros) {
            const size_t n = bytes - at < sizeof zeros ? bytes - at : sizeof zeros;
            if (memcmp(buf + at, zeros, n) == 0) continue;
            for (size_t i = at; i < at + n; ++i)
                CHECK(buf[i] == 0, "byte %zu of the large message is %d, expected 0", i, buf[i]);
        }
    }
    munmap(buf, bytes);
}

int main(int argc, char **argv) {
    int rank, size;
    test_init(&argc, &argv, &rank, &size);
    CHECK(sizeof(void *) == 8, "needs a 64-bit address space");
    CHECK(size <= 2, "runs on 1 or 2 ranks, not %d", size);
    large_type_queries();
    if (size == 2) {
        wide_type_exchange(rank);
        if (large_message_possible()) large_message(rank);
    }
    MPI_Finalize();
    return 0;
}
