// Direct access to the window memory of members on this host (direct.hpp).
#include "direct.hpp"

#include "target.hpp"

#include "../internal/datatype.hpp"
#include "settings/values.hpp"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <utility>

namespace ftmpi::rma {
namespace {

// The header line before the memory: the segment's accumulate mutex.
constexpr size_t header_bytes = 64;
static_assert(sizeof(pthread_mutex_t) <= header_bytes, "the mutex fits the header line");

// A name no other process on this host uses, also one in another pid
// namespace that shares /dev/shm (the pid alone could repeat there): the
// pid and 64 random bits.
SegmentName fresh_name() {
    static std::atomic<uint64_t> made{0};
    uint64_t random = 0;
    if (getrandom(&random, sizeof random, 0) != static_cast<ssize_t>(sizeof random)) random = 0;
    return SegmentName{static_cast<int64_t>(getpid()), static_cast<int64_t>(random ^ made++)};
}

std::string name_of(const SegmentName &n) {
    char name[64];
    std::snprintf(name, sizeof name, "/ftmpi-winmem-%lld-%016llx", static_cast<long long>(n.pid),
                  static_cast<unsigned long long>(n.seq));
    return name;
}

pthread_mutex_t *lock_of(const Segment &s) {
    return s.map == nullptr ? nullptr : reinterpret_cast<pthread_mutex_t *>(s.map);
}

void unmap(Segment &s) {
    if (s.map != nullptr) munmap(s.map, s.map_bytes);
    s = Segment{};
}

// Maps a member's segment of `bytes` of window memory; false when it cannot
// be opened here (another host) or is not what the allgather said.
bool map_segment(const SegmentName &name, MPI_Aint bytes, Segment *out) {
    const int fd = shm_open(name_of(name).c_str(), O_RDWR, 0600);
    if (fd < 0) return false;
    struct stat st {};
    const size_t want = header_bytes + static_cast<size_t>(bytes);
    bool ok = fstat(fd, &st) == 0 && st.st_uid == geteuid() && static_cast<size_t>(st.st_size) == want;
    void *p = ok ? mmap(nullptr, want, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    close(fd);
    if (p == MAP_FAILED) return false;
    *out = Segment{name, static_cast<char *>(p), want};
    return true;
}

// Whether member r is on this process's host as far as the job is
// concerned: FTMPI_RANKS_PER_NODE makes blocks of world ranks hosts of their
// own (testing), whose memory is then reached by messages.
bool same_node(MPI_Win win, int r) {
    const int per_node = settings::current().integer(settings::Id::ranks_per_node);
    if (per_node <= 0) return true;
    const int mine = win->worlds[static_cast<size_t>(win->rank)], theirs = win->worlds[static_cast<size_t>(r)];
    return mine >= 0 && theirs >= 0 && mine / per_node == theirs / per_node;
}

}  // namespace

int allocate_segment(MPI_Win win) {
    if (win->bytes <= 0) return MPI_ERR_NO_MEM;  // nothing to share: private (empty) memory
    if (!settings::current().flag(settings::Id::rma_direct)) return MPI_ERR_NO_MEM;
    const SegmentName name = fresh_name();
    const std::string path = name_of(name);
    const int fd = shm_open(path.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) return MPI_ERR_NO_MEM;
    const size_t total = header_bytes + static_cast<size_t>(win->bytes);
    // Reserved now, so a full /dev/shm is an error here, not SIGBUS at the
    // first store into the window.
    void *p = posix_fallocate(fd, 0, static_cast<off_t>(total)) == 0
        ? mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        : MAP_FAILED;
    close(fd);
    if (p == MAP_FAILED) {
        shm_unlink(path.c_str());
        return MPI_ERR_NO_MEM;
    }
    pthread_mutexattr_t attr;
    pthread_mutexattr_init(&attr);
    pthread_mutexattr_setpshared(&attr, PTHREAD_PROCESS_SHARED);
    pthread_mutexattr_setrobust(&attr, PTHREAD_MUTEX_ROBUST);
    pthread_mutex_init(reinterpret_cast<pthread_mutex_t *>(p), &attr);
    pthread_mutexattr_destroy(&attr);
    win->own_segment = Segment{name, static_cast<char *>(p), total};
    win->base = static_cast<char *>(p) + header_bytes;
    return MPI_SUCCESS;
}

void map_peers(MPI_Win win, const std::vector<SegmentName> &names) {
    // A segment mapped before (FTMPI_Win_rebuild renumbers the members) is
    // kept under its member's new rank: its name was removed after creation,
    // so it could not be mapped again.
    std::vector<Segment> before = std::move(win->peers);
    win->peers.assign(static_cast<size_t>(win->size), Segment{});
    for (int r = 0; r < win->size; ++r) {
        const SegmentName &n = names[static_cast<size_t>(r)];
        if (n.pid == 0 || r == win->rank || !same_node(win, r)) continue;  // none, our own, or "another host"
        Segment &s = win->peers[static_cast<size_t>(r)];
        for (Segment &old : before)
            if (old.map != nullptr && old.name.pid == n.pid && old.name.seq == n.seq) std::swap(s, old);
        if (s.map == nullptr) map_segment(n, win->sizes[static_cast<size_t>(r)], &s);
    }
    for (Segment &old : before) unmap(old);  // members that left
}

void unlink_own_segment(MPI_Win win) {
    if (win->own_segment.map != nullptr) shm_unlink(name_of(win->own_segment.name).c_str());
}

void unmap_segments(MPI_Win win) {
    for (Segment &s : win->peers) unmap(s);
    win->peers.clear();
    if (win->own_segment.map != nullptr) {
        unmap(win->own_segment);
        win->base = nullptr;
    }
}

pthread_mutex_t *own_segment_lock(MPI_Win win) {
    return lock_of(win->own_segment);
}

bool reaches_directly(MPI_Win win, int target) {
    if (win->peers.empty()) return false;  // the members' segments were never looked at (creation failed)
    if (target == win->rank) return win->own_segment.map != nullptr;
    return target >= 0 && static_cast<size_t>(target) < win->peers.size() &&
        win->peers[static_cast<size_t>(target)].map != nullptr;
}

char *mapped_memory(MPI_Win win, int target) {
    if (!reaches_directly(win, target)) return nullptr;
    const Segment &s = target == win->rank ? win->own_segment : win->peers[static_cast<size_t>(target)];
    return s.map + header_bytes;
}

int direct_operation(MPI_Win win, int target, const Header &h, const std::vector<Block> &blocks, const char *data,
                     void *result, int result_count, MPI_Datatype result_type) {
    const Segment &s = target == win->rank ? win->own_segment : win->peers[static_cast<size_t>(target)];
    const Region memory{reinterpret_cast<uintptr_t>(s.map + header_bytes), s.map_bytes - header_bytes};
    thread_local std::vector<char> reply;  // the code, then fetched data; reused
    reply.assign(reply_code_bytes, 0);
    apply_to(win, memory, lock_of(s), h, blocks.data(), data, reply);
    return take_local_reply(reply, result, result_count, result_type);
}

int take_local_reply(const std::vector<char> &reply, void *result, int result_count, MPI_Datatype result_type) {
    int64_t code = MPI_ERR_INTERN;
    std::memcpy(&code, reply.data(), sizeof code);
    if (code == MPI_SUCCESS && result != nullptr)
        dt::unpack(reply.data() + reply_code_bytes, reply.size() - reply_code_bytes, 0, result, result_count,
                   result_type);
    return static_cast<int>(code);
}

}  // namespace ftmpi::rma
