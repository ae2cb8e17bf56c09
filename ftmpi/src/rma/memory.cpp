// The memory behind MPI_Win_allocate (heap) and MPI_Win_allocate_shared
// (one POSIX shared-memory segment that every member maps, so members on
// one host load and store each other's parts directly).
#include "memory.hpp"

#include "direct.hpp"

#include "../internal/pmpi.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ftmpi::rma {
namespace {

constexpr size_t part_alignment = 64;  // each member's part starts on a cache line

size_t round_up(size_t n) {
    return (n + part_alignment - 1) / part_alignment * part_alignment;
}

std::atomic<unsigned> segments_made{0};

}  // namespace

int allocate_private(MPI_Win win) {
    if (win->bytes == 0) return MPI_SUCCESS;
    void *p = std::aligned_alloc(part_alignment, round_up(static_cast<size_t>(win->bytes)));
    if (p == nullptr) return MPI_ERR_NO_MEM;
    std::memset(p, 0, round_up(static_cast<size_t>(win->bytes)));
    win->base = p;
    win->owns_memory = true;
    return MPI_SUCCESS;
}

int allocate_shared(MPI_Win win) {
    win->shm_offsets.assign(static_cast<size_t>(win->size), 0);
    size_t total = 0;
    for (int r = 0; r < win->size; ++r) {
        win->shm_offsets[static_cast<size_t>(r)] = total;
        total += round_up(static_cast<size_t>(win->sizes[static_cast<size_t>(r)]));
    }
    win->shm_bytes = total;
    if (total == 0) return MPI_SUCCESS;
    // Rank 0 names and creates the segment; the others open it once it
    // exists (the broadcast orders them), and rank 0 unlinks it when every
    // member has mapped it, so nothing outlives the job in /dev/shm.
    char name[64] = {0};
    int code = MPI_SUCCESS;
    int fd = -1;
    if (win->rank == 0) {
        std::snprintf(name, sizeof name, "/ftmpi-win-%ld-%u", static_cast<long>(getpid()), segments_made++);
        fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
        if (fd < 0 || ftruncate(fd, static_cast<off_t>(total)) != 0) code = MPI_ERR_NO_MEM;
        if (code != MPI_SUCCESS) name[0] = '\0';
    }
    if (int e = PMPI_Bcast(name, sizeof name, MPI_CHAR, 0, win->comm)) code = e;
    if (code == MPI_SUCCESS && win->rank != 0) {
        // A member on another host finds no such segment.
        if (name[0] == '\0' || (fd = shm_open(name, O_RDWR, 0600)) < 0) code = MPI_ERR_RMA_SHARED;
    }
    if (code == MPI_SUCCESS) {
        void *p = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED)
            code = MPI_ERR_NO_MEM;
        else
            win->shm = static_cast<char *>(p);
    }
    if (fd >= 0) close(fd);
    // Everybody mapped it (or failed) before rank 0 removes the name.
    int worst = code;
    if (int e = PMPI_Allreduce(&code, &worst, 1, MPI_INT, MPI_MAX, win->comm)) worst = e;
    if (win->rank == 0 && name[0] != '\0') shm_unlink(name);
    if (worst != MPI_SUCCESS) return worst;
    win->base = win->sizes[static_cast<size_t>(win->rank)] > 0
        ? win->shm + win->shm_offsets[static_cast<size_t>(win->rank)]
        : nullptr;
    return MPI_SUCCESS;
}

void release_memory(MPI_Win win) {
    unmap_segments(win);  // MPI_Win_allocate's segment, and the members' ones mapped here
    if (win->owns_memory) std::free(win->base);
    if (win->shm != nullptr) munmap(win->shm, win->shm_bytes);
    win->base = nullptr;
    win->shm = nullptr;
    win->owns_memory = false;
}

}  // namespace ftmpi::rma
