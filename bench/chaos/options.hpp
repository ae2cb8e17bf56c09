// options.hpp — chaos_soak's settings, each declared once with its default
// and one line of help; --help and the README's table come from here.
#pragma once

#include "faults.hpp"

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace harness::chaos {

struct Options {
    int trials = 16;
    std::uint64_t seed = 1;
    std::vector<Fault> faults{std::begin(kAllFaults), std::end(kAllFaults)};
    std::vector<std::string> modes{"shrink", "ulfm"};
    int daemons = 3;
    int timeout_s = 60;
    int steps = 20;
    int step_ms = 80;
    int drd_ops = 2000;
    int drd_clients_per_daemon = 2;
    bool netns = true;
    std::filesystem::path keep_logs;
    std::filesystem::path ftmpirun;
    std::filesystem::path program;
};

// Parses argv into *o. Returns an exit status when the program should stop
// (0 after --help, 2 with a message on stderr after a bad option).
std::optional<int> parse_options(int argc, char **argv, Options *o);

}  // namespace harness::chaos
