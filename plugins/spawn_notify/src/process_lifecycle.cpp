// The process table's part for MPI jobs (process_table.hpp): reading a
// child's lifecycle socket, and what the end of a job's process takes with it.
#include "job_cleanup.hpp"
#include "process.hpp"

#include <cerrno>
#include <unistd.h>

namespace harness::vm::spawn {

void ProcessTable::read_lifecycle(const Lock &, Process &p) {
    char buf[256];
    while (p.lifecycle_fd >= 0) {
        ssize_t n = ::read(p.lifecycle_fd, buf, sizeof buf);
        if (n > 0) {
            p.lifecycle_partial.append(buf, static_cast<std::size_t>(n));
            for (auto nl = p.lifecycle_partial.find('\n'); nl != std::string::npos;
                 nl = p.lifecycle_partial.find('\n')) {
                std::string word = p.lifecycle_partial.substr(0, nl);
                p.lifecycle_partial.erase(0, nl + 1);
                if (!word.empty() && word.size() <= 32) p.mpi_state = word;
            }
            // Only short words are meaningful; a process writing garbage
            // does not make the daemon hold it.
            if (p.lifecycle_partial.size() > 64) p.lifecycle_partial.clear();
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) return;
        close_lifecycle(p);  // EOF: nobody holds the write end any more
    }
}

void ProcessTable::close_lifecycle(Process &p) {
    if (p.lifecycle_fd < 0) return;
    unwatch(p.lifecycle_fd);
    ::close(p.lifecycle_fd);
    p.lifecycle_fd = -1;
}

// A process of an MPI job was reaped (its group was killed in reap). When
// it was the job's last process here, the files of the ranks started here
// go. Not before: a rank of this host still in MPI_Init takes a dead
// neighbour's leftover inbox for the sign that it died, and would wait for
// a removed one. And only those: ranks started by another daemon of this
// machine (network namespaces share /dev/shm) may still be starting or
// running (job_cleanup.hpp).
void ProcessTable::end_job_process(const Lock &, Process &p) {
    if (p.job.empty()) return;
    for (const auto &[h, other] : processes_)
        if (other.get() != &p && other->job == p.job && !other->exited) return;
    auto files = job_files_.find(p.job);
    if (files == job_files_.end()) return;
    remove_rank_files(files->second);
    ledger_remove(shm_ledger_, files->second);
    job_files_.erase(files);
}

}  // namespace harness::vm::spawn
