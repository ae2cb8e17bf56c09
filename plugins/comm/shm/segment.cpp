// See segment.hpp.
#include "segment.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ftmpi::shm {

namespace {

std::runtime_error sys_error(const std::string &what) {
    return std::runtime_error(what + ": " + std::strerror(errno));
}

std::string sanitized(const std::string &job) {
    std::string out;
    for (char c : job.substr(0, 96)) {
        bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        out.push_back(keep ? c : '_');
    }
    return out;
}

void copy_text(char *dst, size_t cap, const std::string &s) {
    size_t n = std::min(cap - 1, s.size());
    std::memcpy(dst, s.data(), n);
    dst[n] = '\0';
}

bool text_equals(const char *field, size_t cap, const std::string &s) {
    return std::strncmp(field, s.substr(0, cap - 1).c_str(), cap) == 0;
}

uint64_t ns_inode(const char *path) {
    struct stat st {};
    return ::stat(path, &st) == 0 ? static_cast<uint64_t>(st.st_ino) : 0;
}

// A leftover segment is replaced only when its creator no longer runs.
bool leftover_of_dead_process(int fd) {
    SegmentHeader h{};
    if (::pread(fd, &h, sizeof h, 0) != static_cast<ssize_t>(sizeof h)) return true;  // never initialized
    return h.owner_pid <= 0 || (::kill(h.owner_pid, 0) != 0 && errno == ESRCH);
}

}  // namespace

size_t slot_stride(size_t ring_bytes) {
    return sizeof(SlotControl) + ring_bytes;
}

size_t segment_bytes(int slots, size_t ring_bytes) {
    return sizeof(SegmentHeader) + static_cast<size_t>(slots) * slot_stride(ring_bytes);
}

SlotControl *Mapping::slot(int sender) const {
    char *base = reinterpret_cast<char *>(header) + sizeof(SegmentHeader);
    return reinterpret_cast<SlotControl *>(base + static_cast<size_t>(sender) * header->slot_stride);
}

char *Mapping::ring(int sender) const {
    return reinterpret_cast<char *>(slot(sender)) + sizeof(SlotControl);
}

std::string segment_name(const std::string &job, int rank, int incarnation) {
    return "/ftmpi." + sanitized(job) + "." + std::to_string(rank) + "." + std::to_string(incarnation);
}

std::string wake_path(const std::string &job, int rank, int incarnation) {
    return "/dev/shm" + segment_name(job, rank, incarnation) + ".wake";
}

std::string host_key() {
    std::string boot;
    std::ifstream in("/proc/sys/kernel/random/boot_id");
    std::getline(in, boot);
    std::string key;
    for (char c : boot)
        if (c != '-') key.push_back(c);
    if (key.empty()) key = "noboot";
    return key + "-" + std::to_string(ns_inode("/proc/self/ns/net")) + "-" +
        std::to_string(ns_inode("/proc/self/ns/pid"));
}

Mapping create_inbox(const CreateArgs &a, int *wake_fd) {
    const std::string name = segment_name(a.job, a.rank, a.incarnation);
    const std::string fifo = wake_path(a.job, a.rank, a.incarnation);
    const size_t total = segment_bytes(a.size, a.ring_bytes);

    int fd = -1;
    for (int attempt = 0; attempt < 2 && fd < 0; ++attempt) {
        fd = ::shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, 0600);
        if (fd >= 0 || errno != EEXIST) break;
        int old = ::shm_open(name.c_str(), O_RDONLY | O_CLOEXEC, 0);
        bool stale = old < 0 || leftover_of_dead_process(old);
        if (old >= 0) ::close(old);
        if (!stale) throw std::runtime_error("shared-memory segment " + name + " is in use by a running process");
        ::shm_unlink(name.c_str());
        ::unlink(fifo.c_str());
    }
    if (fd < 0) throw sys_error("shm_open " + name);
    auto fail = [&](const std::string &what) {
        std::runtime_error e = sys_error(what);
        ::close(fd);
        ::shm_unlink(name.c_str());
        ::unlink(fifo.c_str());
        return e;
    };
    if (::fchmod(fd, 0600) != 0) throw fail("fchmod " + name);
    if (::ftruncate(fd, static_cast<off_t>(total)) != 0) throw fail("ftruncate " + name);
    // The FIFO exists before the segment is ready, so a sender that attaches
    // can always open it.
    ::unlink(fifo.c_str());
    if (::mkfifo(fifo.c_str(), 0600) != 0) throw fail("mkfifo " + fifo);
    int wfd = ::open(fifo.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (wfd < 0) throw fail("open " + fifo);
    void *p = ::mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        ::close(wfd);
        throw fail("mmap " + name);
    }
    ::close(fd);

    Mapping m;
    m.header = static_cast<SegmentHeader *>(p);
    m.length = total;
    SegmentHeader &h = *m.header;
    h.magic = segment_magic;
    h.version = segment_version;
    h.slots = static_cast<uint32_t>(a.size);
    h.ring_bytes = a.ring_bytes;
    h.slot_stride = slot_stride(a.ring_bytes);
    h.total_bytes = total;
    h.owner_pid = static_cast<int32_t>(::getpid());
    h.owner_rank = a.rank;
    h.owner_incarnation = a.incarnation;
    copy_text(h.job, sizeof h.job, a.job);
    copy_text(h.host_key, sizeof h.host_key, a.host_key);
    store_release(h.ready, 1u);
    *wake_fd = wfd;
    return m;
}

void unmap(Mapping &m) {
    if (m.header) ::munmap(m.header, m.length);
    m = Mapping{};
}

void destroy_inbox(Mapping &m, const std::string &job, int rank, int incarnation) {
    unmap(m);
    ::shm_unlink(segment_name(job, rank, incarnation).c_str());
    ::unlink(wake_path(job, rank, incarnation).c_str());
}

AttachResult attach_inbox(const Expect &e, Mapping *out, std::string *why) {
    const std::string name = segment_name(e.job, e.rank, e.incarnation);
    int fd = ::shm_open(name.c_str(), O_RDWR | O_CLOEXEC, 0);
    if (fd < 0) {
        if (errno == ENOENT) return AttachResult::not_yet;
        *why = name + ": " + std::strerror(errno);
        return AttachResult::refused;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_uid != ::geteuid() || (st.st_mode & 077) != 0) {
        ::close(fd);
        *why = name + " is not private to this user (owner or mode)";
        return AttachResult::refused;
    }
    const size_t length = static_cast<size_t>(st.st_size);
    if (length < sizeof(SegmentHeader)) {
        ::close(fd);
        return AttachResult::not_yet;  // its owner is still sizing it
    }
    void *p = ::mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    ::close(fd);
    if (p == MAP_FAILED) {
        *why = "mmap " + name + ": " + std::strerror(errno);
        return AttachResult::refused;
    }
    Mapping m;
    m.header = static_cast<SegmentHeader *>(p);
    m.length = length;
    SegmentHeader &h = *m.header;
    if (load_acquire(h.ready) != 1u) {
        unmap(m);
        return AttachResult::not_yet;
    }
    std::string problem;
    if (h.magic != segment_magic || h.version != segment_version)
        problem = "not an ftmpi shm segment of this version";
    else if (!text_equals(h.job, sizeof h.job, e.job))
        problem = "belongs to another job";
    else if (h.owner_rank != e.rank || h.owner_incarnation != e.incarnation || h.slots != static_cast<uint32_t>(e.size))
        problem = "rank, incarnation or job size differ";
    else if (!text_equals(h.host_key, sizeof h.host_key, e.host_key))
        problem = "was made on another host";
    else if (h.ring_bytes < 4096 || (h.ring_bytes & (h.ring_bytes - 1)) != 0 ||
             h.slot_stride != slot_stride(h.ring_bytes) || h.total_bytes != segment_bytes(e.size, h.ring_bytes) ||
             h.total_bytes > length)
        problem = "has an inconsistent layout";
    if (!problem.empty()) {
        unmap(m);
        *why = name + " " + problem;
        return AttachResult::refused;
    }
    *out = m;
    return AttachResult::attached;
}

}  // namespace ftmpi::shm
