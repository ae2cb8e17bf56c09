#include "job_cleanup.hpp"

#include <csignal>
#include <fstream>
#include <iterator>
#include <set>
#include <system_error>
#include <unistd.h>

namespace harness::vm::spawn {

namespace {

std::string value_of(const std::vector<std::string> &env, const std::string &name) {
    const std::string prefix = name + "=";
    for (auto it = env.rbegin(); it != env.rend(); ++it)
        if (it->compare(0, prefix.size(), prefix) == 0) return it->substr(prefix.size());
    return {};
}

}  // namespace

std::string job_of(const std::vector<std::string> &env) {
    // FTMPI_JOB counts from 1 in each VM; FTMPI_JOB_KEY (set by ftmpirun)
    // tells two VMs' jobs of one id apart. libftmpi names its shared-memory
    // files with the same "<job>-<key>".
    std::string job = value_of(env, "FTMPI_JOB");
    std::string key = value_of(env, "FTMPI_JOB_KEY");
    return job.empty() || key.empty() ? job : job + "-" + key;
}

std::string job_shm_prefix(const std::string &job) {
    std::string safe = job;
    for (char &c : safe) {
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!ok) c = '_';
    }
    return "ftmpi." + safe + ".";
}

int remove_job_segments(const std::string &job, const std::filesystem::path &dir) {
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

Leftovers kill_leftovers(const std::string &owner) {
    Leftovers done;
    if (owner.empty()) return done;
    const std::string mark = std::string(kOwnerEnv) + "=" + owner;
    const pid_t me = ::getpid();
    const pid_t my_group = ::getpgid(0);
    std::set<std::string> jobs;
    std::error_code ec;
    std::filesystem::directory_iterator it("/proc", ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string name = it->path().filename().string();
        if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
        const pid_t pid = static_cast<pid_t>(std::stol(name));
        if (pid == me) continue;
        std::ifstream in(it->path() / "environ", std::ios::binary);
        if (!in) continue;  // gone, or not ours to read
        std::string environ_text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        std::vector<std::string> env;
        bool marked = false;
        for (std::size_t start = 0; start < environ_text.size();) {
            std::size_t nul = environ_text.find('\0', start);
            if (nul == std::string::npos) nul = environ_text.size();
            env.push_back(environ_text.substr(start, nul - start));
            marked |= env.back() == mark;
            start = nul + 1;
        }
        const std::string job = job_of(env);
        if (!marked || job.empty()) continue;
        jobs.insert(job);
        const pid_t group = ::getpgid(pid);
        if (group > 1 && group != my_group) ::kill(-group, SIGKILL);
        ::kill(pid, SIGKILL);
        ++done.processes;
    }
    for (const auto &job : jobs) done.files += remove_job_segments(job);
    return done;
}

}  // namespace harness::vm::spawn
