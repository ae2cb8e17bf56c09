#include "spawn_support.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

namespace harness::spawn_test {

std::unique_ptr<test::Daemon> start_daemon(std::vector<std::string> env) {
    test::DaemonOptions o;
    o.services = "vm/spawn_notify";
    o.env = std::move(env);
    return test::Daemon::start(o);
}

SpawnClient client_of(const test::Daemon &d) {
    auto key = it::read_key(d.key_file());
    spawn_client::Address where;
    where.unix_socket = d.unix_socket();
    auto c = SpawnClient::open(where, key, 5s);
    REQUIRE_MESSAGE(c.ok(), (c ? "" : c.error().describe()));
    return std::move(c).value();
}

Collected collect_output(SpawnClient &c, std::int64_t handle, std::chrono::milliseconds timeout) {
    Collected got;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    std::int64_t after = 0;
    for (;;) {
        REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline,
                        "output of handle " << handle << " not finished in time");
        auto o = c.output(handle, after, 2s);
        REQUIRE_MESSAGE(o.ok(), (o ? "" : o.error().describe()));
        for (auto &line : o->lines) {
            (line.stream == 1 ? got.out : got.err).push_back(line.text);
            got.all.push_back(line);
        }
        after = o->next_line;
        if (o->finished) return got;
    }
}

spawn_client::ProcStatus wait_exit(SpawnClient &c, std::int64_t handle, std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    std::int64_t after = 0;
    for (;;) {
        auto s = c.status(handle);
        REQUIRE_MESSAGE(s.ok(), (s ? "" : s.error().describe()));
        if (s->state != "running") return *s;
        REQUIRE_MESSAGE(std::chrono::steady_clock::now() < deadline, "handle " << handle << " still running");
        auto w = c.wait(after, 500ms);
        REQUIRE_MESSAGE(w.ok(), (w ? "" : w.error().describe()));
        after = w->next_event;
    }
}

std::vector<pid_t> zombie_children(pid_t parent) {
    std::vector<pid_t> out;
    for (const auto &entry : std::filesystem::directory_iterator("/proc")) {
        const std::string name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) continue;
        std::ifstream stat(entry.path() / "stat");
        std::string line;
        if (!std::getline(stat, line)) continue;
        auto close_paren = line.rfind(')');
        if (close_paren == std::string::npos || close_paren + 4 >= line.size()) continue;
        char state = line[close_paren + 2];
        pid_t ppid = static_cast<pid_t>(std::atol(line.c_str() + close_paren + 4));
        if (ppid == parent && state == 'Z') out.push_back(static_cast<pid_t>(std::stol(name)));
    }
    return out;
}

std::vector<std::string> cominfo_job_command(const std::string &ftmpirun, const std::string &job_program,
                                             const Endpoint &hcore, const std::filesystem::path &key_file,
                                             const std::filesystem::path &dir) {
    return {ftmpirun,    "--hcore", hcore.to_string(), "--key",       key_file.string(),
            "--timeout", "100",     "--oversubscribe", "--comm-mode", "shrink",
            "-np",       "4",       job_program,       dir.string()};
}

SpawnSpec shell(const std::string &script, std::string tag) {
    SpawnSpec s;
    s.argv = {"/bin/sh", "-c", script};
    s.tag = std::move(tag);
    return s;
}

}  // namespace harness::spawn_test
