// Creating, attaching and waking through a communicator's shared segment (node_segment.hpp).
#include "node_segment.hpp"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <utility>

namespace ftmpi::coll::node {

namespace {

size_t round_up(size_t n, size_t to) {
    return (n + to - 1) / to * to;
}

size_t slot_stride_for(size_t buffer_bytes) {
    return round_up(slot_data_offset + buffer_bytes, line);
}

size_t stride_for(size_t buffer_bytes) {
    return sizeof(MemberBlock) + short_slots * line + long_slots * slot_stride_for(buffer_bytes);
}

size_t total_for(int members, size_t buffer_bytes) {
    return sizeof(Header) + static_cast<size_t>(members) * stride_for(buffer_bytes);
}

std::string errno_text(const char *what) {
    return std::string(what) + ": " + std::strerror(errno);
}

std::atomic<int> mapped_segments{0};

long futex(uint32_t *word, int op, uint32_t value, const timespec *timeout) {
    return syscall(SYS_futex, word, op, value, timeout, nullptr, 0);
}

}  // namespace

Segment::~Segment() {
    unmap();
}

Segment::Segment(Segment &&other) noexcept
    : base_(std::exchange(other.base_, nullptr)), bytes_(std::exchange(other.bytes_, 0)),
      name_(std::move(other.name_)) {}

Segment &Segment::operator=(Segment &&other) noexcept {
    if (this != &other) {
        unmap();
        base_ = std::exchange(other.base_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
        name_ = std::move(other.name_);
    }
    return *this;
}

int Segment::live() {
    return mapped_segments.load(std::memory_order_relaxed);
}

void Segment::unmap() {
    if (base_ != nullptr) {
        munmap(base_, bytes_);
        mapped_segments.fetch_sub(1, std::memory_order_relaxed);
    }
    base_ = nullptr;
    bytes_ = 0;
}

Segment Segment::create(const std::string &prefix, int members, size_t buffer_bytes, std::string *why) {
    uint64_t random = 0;
    if (getrandom(&random, sizeof random, 0) != static_cast<ssize_t>(sizeof random)) random = 0;
    static std::atomic<uint64_t> made{0};
    char suffix[48];
    std::snprintf(suffix, sizeof suffix, ".coll.%d.%016llx", static_cast<int>(getpid()),
                  static_cast<unsigned long long>(random ^ made.fetch_add(1)));
    Segment s;
    s.name_ = prefix + suffix;
    const int fd = shm_open(s.name_.c_str(), O_CREAT | O_EXCL | O_RDWR, 0600);
    if (fd < 0) {
        *why = errno_text(("shm_open " + s.name_).c_str());
        return {};
    }
    const size_t total = total_for(members, buffer_bytes);
    // Reserved now, so a full /dev/shm is an error here and not SIGBUS later.
    const int reserved = posix_fallocate(fd, 0, static_cast<off_t>(total));
    void *p = reserved == 0 ? mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    const int saved = reserved != 0 ? reserved : errno;
    close(fd);
    if (p == MAP_FAILED) {
        shm_unlink(s.name_.c_str());
        errno = saved;
        *why = errno_text(("reserving " + std::to_string(total) + " bytes for " + s.name_).c_str());
        return {};
    }
    s.base_ = static_cast<char *>(p);
    s.bytes_ = total;
    mapped_segments.fetch_add(1, std::memory_order_relaxed);
    Header *h = s.header();  // the file is zero-filled: every word starts at 0
    h->members = static_cast<uint32_t>(members);
    h->buffer_bytes = buffer_bytes;
    h->slot_stride = slot_stride_for(buffer_bytes);
    h->stride = stride_for(buffer_bytes);
    h->total_bytes = total;
    store_release(h->magic, segment_magic);
    return s;
}

Segment Segment::attach(const std::string &name, int members, size_t buffer_bytes, std::string *why) {
    const int fd = shm_open(name.c_str(), O_RDWR, 0600);
    if (fd < 0) {
        *why = errno_text(("shm_open " + name).c_str());
        return {};
    }
    struct stat st {};
    const size_t total = total_for(members, buffer_bytes);
    const bool sized = fstat(fd, &st) == 0 && st.st_uid == geteuid() && static_cast<size_t>(st.st_size) == total;
    void *p = sized ? mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    close(fd);
    if (p == MAP_FAILED) {
        *why = sized ? errno_text(("mmap " + name).c_str()) : name + " is not the segment this member expects";
        return {};
    }
    Segment s;
    s.base_ = static_cast<char *>(p);
    s.bytes_ = total;
    s.name_ = name;
    mapped_segments.fetch_add(1, std::memory_order_relaxed);
    const Header *h = s.header();
    if (load_acquire(const_cast<Header *>(h)->magic) != segment_magic || h->members != static_cast<uint32_t>(members) ||
        h->buffer_bytes != buffer_bytes || h->slot_stride != slot_stride_for(buffer_bytes) ||
        h->stride != stride_for(buffer_bytes)) {
        *why = name + " has another layout than this member expects";
        return {};
    }
    return s;
}

void Segment::unlink_name() const {
    if (!name_.empty()) shm_unlink(name_.c_str());
}

void Segment::ring(int m) const {
    MemberBlock &b = member(m);
    // Pairs with the sleeper's count-then-recheck: either this load sees the
    // sleeper, or the sleeper's recheck sees what was published before.
    std::atomic_thread_fence(std::memory_order_seq_cst);
    if (std::atomic_ref<uint32_t>(b.sleepers).load(std::memory_order_relaxed) == 0) return;
    std::atomic_ref<uint32_t>(b.bell).fetch_add(1, std::memory_order_release);
    futex(&b.bell, FUTEX_WAKE, INT_MAX, nullptr);
}

void Segment::sleep(int m, uint32_t seen, long timeout_us) const {
    const timespec timeout{timeout_us / 1000000, (timeout_us % 1000000) * 1000};
    futex(&member(m).bell, FUTEX_WAIT, seen, &timeout);  // returns at once if the bell moved past seen
}

}  // namespace ftmpi::coll::node
