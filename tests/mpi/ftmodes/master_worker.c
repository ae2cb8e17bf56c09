/* BLANK + CONT: the master (rank 0) hands out work items
 * one at a time; worker FT_KILL_RANK SIGKILLs itself on its FT_KILL_ITEM-th
 * item (default 1: every worker surely gets one, on a loaded host the
 * others may do all the rest) without answering. The master sees the receive from it fail, hands the
 * lost item to a live worker, and the total is exact. Then everyone left
 * recovers with MPI_Comm_dup: the size stays, the dead worker is a gap. */
#include "ftmodes.h"

enum { items = 40, tag_item = 1, tag_result = 2, tag_stop = 3 };

static long expected_total(void) {
    long t = 0;
    for (long i = 1; i <= items; ++i) t += i * i;
    return t;
}

static void worker(int rank) {
    int count = 0;
    const char *at = getenv("FT_KILL_ITEM");
    const int kill_at = at && *at ? atoi(at) : 1;
    for (;;) {
        long item = 0;
        MPI_Status st;
        CHECK_MPI(MPI_Recv(&item, 1, MPI_LONG, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st));
        if (st.MPI_TAG == tag_stop) return;
        if (++count == kill_at && rank == ft_kill_rank()) {
            printf("rank %d: killing myself holding item %ld\n", rank, item);
            ft_die();
        }
        long out[2] = {item, item * item};
        CHECK_MPI(MPI_Send(out, 2, MPI_LONG, 0, tag_result, MPI_COMM_WORLD));
    }
}

static void master(int size) {
    long next = 1, total = 0, done = 0;
    long holding[64]; /* item each worker holds, 0 = idle */
    int dead[64] = {0};
    long lost[items]; /* items to hand out again */
    int nlost = 0;
    long results[64][2];
    MPI_Request req[64];
    CHECK(size <= 64, "at most 64 ranks");
    req[0] = MPI_REQUEST_NULL;
    for (int w = 1; w < size; ++w) {
        holding[w] = next++;
        CHECK_MPI(MPI_Send(&holding[w], 1, MPI_LONG, w, tag_item, MPI_COMM_WORLD));
        CHECK_MPI(MPI_Irecv(results[w], 2, MPI_LONG, w, tag_result, MPI_COMM_WORLD, &req[w]));
    }
    while (done < items) {
        int w = MPI_UNDEFINED;
        MPI_Status st;
        int rc = MPI_Waitany(size, req, &w, &st);
        CHECK(w != MPI_UNDEFINED, "no live worker left with %ld items done", done);
        if (rc != MPI_SUCCESS) {
            CHECK(rc == MPI_ERR_OTHER, "receive from worker %d gave %s", w, error_class_name(rc));
            printf("master: worker %d failed holding item %ld; handing it out again\n", w, holding[w]);
            dead[w] = 1;
            lost[nlost++] = holding[w];
            holding[w] = 0;
            req[w] = MPI_REQUEST_NULL;
        } else {
            CHECK(results[w][0] == holding[w], "worker %d answered item %ld, holds %ld", w, results[w][0], holding[w]);
            total += results[w][1];
            ++done;
            holding[w] = 0;
        }
        /* Give every idle live worker something, lost items first. */
        for (int v = 1; v < size; ++v) {
            if (dead[v] || holding[v] != 0) continue;
            if (nlost > 0)
                holding[v] = lost[--nlost];
            else if (next <= items)
                holding[v] = next++;
            else
                continue;
            CHECK_MPI(MPI_Send(&holding[v], 1, MPI_LONG, v, tag_item, MPI_COMM_WORLD));
            CHECK_MPI(MPI_Irecv(results[v], 2, MPI_LONG, v, tag_result, MPI_COMM_WORLD, &req[v]));
        }
    }
    CHECK(total == expected_total(), "total %ld, expected %ld", total, expected_total());
    int ndead = 0;
    for (int v = 1; v < size; ++v) ndead += dead[v];
    CHECK(ndead == 1, "%d workers failed, expected 1", ndead);
    long zero = 0;
    for (int v = 1; v < size; ++v)
        if (!dead[v]) CHECK_MPI(MPI_Send(&zero, 1, MPI_LONG, v, tag_stop, MPI_COMM_WORLD));
    printf("master: total %ld is exact\n", total);
}

int main(int argc, char **argv) {
    int rank, size;
    ft_init(&argc, &argv, &rank, &size);
    const int victim = ft_kill_rank();
    CHECK(victim > 0 && victim < size, "FT_KILL_RANK must name a worker");
    if (rank == 0)
        master(size);
    else
        worker(rank);

    /* The survivors recover: BLANK keeps the extent, the dead worker is a gap. */
    MPI_Comm work = ftm_recover(MPI_COMM_WORLD);
    int n, r;
    MPI_Comm_size(work, &n);
    MPI_Comm_rank(work, &r);
    CHECK(n == size && r == rank, "after the recovery rank %d of %d", r, n);
    int one = 1, live = 0;
    CHECK_MPI(MPI_Allreduce(&one, &live, 1, MPI_INT, MPI_SUM, work));
    CHECK(live == size - 1, "%d live ranks, expected %d", live, size - 1);
    MPI_Comm_free(&work);
    MPI_Finalize();
    return 0;
}
