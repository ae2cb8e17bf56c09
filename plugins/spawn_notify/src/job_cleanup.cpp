#include "job_cleanup.hpp"

#include <algorithm>
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

std::string rank_files_name(const std::vector<std::string> &env) {
    std::string job = job_of(env);
    const std::string rank = value_of(env, "FTMPI_RANK");
    if (job.empty() || rank.empty()) return {};
    const std::string incarnation = value_of(env, "FTMPI_INCARNATION");
    for (char &c : job) {
        bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
        if (!ok) c = '_';
    }
    return "ftmpi." + job + "." + rank + "." + (incarnation.empty() ? "0" : incarnation);
}

int remove_rank_files(const std::vector<std::string> &names, const std::filesystem::path &dir) {
    const auto ours = [&](const std::string &entry) {
        for (const std::string &name : names)
            if (!name.empty() && entry.compare(0, name.size(), name) == 0 &&
                (entry.size() == name.size() || entry[name.size()] == '.'))
                return true;
        return false;
    };
    int removed = 0;
    std::error_code ec;
    std::filesystem::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        std::error_code rm;
        if (ours(it->path().filename().string()) && std::filesystem::remove(it->path(), rm)) ++removed;
    }
    return removed;
}

std::filesystem::path rank_files_ledger(const std::string &root) {
    if (root.empty()) return {};
    return std::filesystem::path(root) / "var" / "spawn_notify.shm";
}

void ledger_add(const std::filesystem::path &ledger, const std::string &name) {
    if (ledger.empty() || name.empty()) return;
    std::ofstream out(ledger, std::ios::app);
    out << name << '\n';
}

void ledger_remove(const std::filesystem::path &ledger, const std::vector<std::string> &names) {
    if (ledger.empty() || names.empty()) return;
    std::vector<std::string> kept;
    {
        std::ifstream in(ledger);
        for (std::string line; std::getline(in, line);)
            if (!line.empty() && std::find(names.begin(), names.end(), line) == names.end()) kept.push_back(line);
    }
    std::error_code ec;
    const auto fresh = ledger.string() + ".new";
    {
        std::ofstream out(fresh, std::ios::trunc);
        for (const auto &line : kept) out << line << '\n';
    }
    std::filesystem::rename(fresh, ledger, ec);  // whole or not at all
}

Leftovers kill_leftovers(const std::string &owner) {
    Leftovers done;
    if (owner.empty()) return done;
    const std::string mark = std::string(kOwnerEnv) + "=" + owner;
    const pid_t me = ::getpid();
    const pid_t my_group = ::getpgid(0);
    std::set<std::string> files;  // from the processes' environments and the ledger, each once
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
        if (!marked || job_of(env).empty()) continue;
        files.insert(rank_files_name(env));
        const pid_t group = ::getpgid(pid);
        if (group > 1 && group != my_group) ::kill(-group, SIGKILL);
        ::kill(pid, SIGKILL);
        ++done.processes;
    }
    const std::filesystem::path ledger = rank_files_ledger(owner);
    if (!ledger.empty()) {
        std::ifstream in(ledger);
        for (std::string line; std::getline(in, line);)
            if (!line.empty()) files.insert(line);
    }
    done.files = remove_rank_files(std::vector<std::string>(files.begin(), files.end()));
    std::error_code gone;
    if (!ledger.empty()) std::filesystem::remove(ledger, gone);
    return done;
}

}  // namespace harness::vm::spawn
