// process.hpp — a child process for the soak: started with its output going
// to files (so the driver can watch a job's output while it runs), waited
// for with a deadline, killed by pid. Plus the few /proc and pid-file reads
// the driver makes about processes it did not start.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace harness::chaos {

class Child {
public:
    // Starts argv (argv[0] looked up in PATH), stdout and stderr to the files.
    Child(const std::vector<std::string> &argv, const std::filesystem::path &out, const std::filesystem::path &err);
    ~Child();  // kills it (SIGKILL) if still running
    Child(const Child &) = delete;
    Child &operator=(const Child &) = delete;

    pid_t pid() const { return pid_; }
    // The wait status once it has exited (reaps it), or nullopt while it runs.
    std::optional<int> poll();
    // Waits until it exits or the deadline passes.
    std::optional<int> wait_until(std::chrono::steady_clock::time_point deadline);
    void kill_hard();

private:
    pid_t pid_ = -1;
    std::optional<int> status_;
};

// The pid in a file like "1234\n", or nullopt when the file is absent or empty.
std::optional<pid_t> read_pid(const std::filesystem::path &file);
// True while pid exists and is not a zombie.
bool alive(pid_t pid);
// The whole file as text ("" when absent).
std::string read_text(const std::filesystem::path &file);

}  // namespace harness::chaos
