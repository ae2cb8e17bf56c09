#include "job_cleanup.hpp"

#include <system_error>

namespace harness::vm::spawn {

std::string job_of(const std::vector<std::string> &env)
{
    static const std::string name = "FTMPI_JOB=";
    for (auto it = env.rbegin(); it != env.rend(); ++it)
        if (it->compare(0, name.size(), name) == 0) return it->substr(name.size());
    return {};
}

std::string job_shm_prefix(const std::string &job)
{
    std::string safe = job;
    for (char &c : safe) {
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!ok) c = '_';
    }
    return "ftmpi." + safe + ".";
}

int remove_job_segments(const std::string &job, const std::filesystem::path &dir)
{
    if (job.empty()) return 0;
    const std::string prefix = job_shm_prefix(job);
    int removed = 0;
    std::error_code ec;
    std::filesystem::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.compare(0, prefix.size(), prefix) != 0) continue;
        std::error_code rm;
        if (std::filesystem::remove(it->path(), rm)) ++removed;
    }
    return removed;
}

} // namespace harness::vm::spawn
