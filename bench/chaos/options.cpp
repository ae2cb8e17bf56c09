#include "options.hpp"

#include <cstdio>
#include <functional>
#include <sstream>

namespace harness::chaos {

namespace {

struct Setting {
    const char *name;
    const char *value;  // "" for a flag
    const char *help;
    std::function<bool(const std::string &)> set;
};

std::vector<std::string> split(const std::string &list) {
    std::vector<std::string> out;
    std::istringstream in(list);
    std::string item;
    while (std::getline(in, item, ',')) out.push_back(item);
    return out;
}

bool to_int(const std::string &s, int lo, int hi, int *out) {
    try {
        std::size_t used = 0;
        long v = std::stol(s, &used);
        if (used != s.size() || v < lo || v > hi) return false;
        *out = static_cast<int>(v);
        return true;
    } catch (const std::exception &) {
        return false;
    }
}

using Setter = std::function<bool(const std::string &)>;

Setter in_range(int lo, int hi, int *field) {
    return [=](const std::string &v) { return to_int(v, lo, hi, field); };
}

template <class T>
Setter as_given(T *field) {
    return [field](const std::string &v) {
        *field = v;
        return true;
    };
}

std::vector<Setting> settings(Options *o) {
    return {
        {"--trials", "N", "FT-MPI job trials, one fault each (default 16; 0: none)", in_range(0, 100000, &o->trials)},
        {"--seed", "S", "seed of every random choice: which rank, which moment (default 1)",
         [o](const std::string &v) {
             try {
                 o->seed = std::stoull(v);
                 return true;
             } catch (const std::exception &) {
                 return false;
             }
         }},
        {"--kinds", "LIST",
         "faults to inject, in turn (default all: rank-kill,daemon-kill,two-kills,"
         "rank-stop,rank-exit,link-cut,init-kill,recovery-kill)",
         [o](const std::string &v) {
             std::string bad;
             auto f = parse_faults(v, &bad);
             if (f) o->faults = *f;
             return f.has_value();
         }},
        {"--modes", "LIST", "comm modes, in turn (default shrink,ulfm; abort is expected to give ABORTED)",
         [o](const std::string &v) {
             o->modes = split(v);
             for (const auto &m : o->modes)
                 if (m != "shrink" && m != "ulfm" && m != "abort") return false;
             return !o->modes.empty();
         }},
        {"--daemons", "N", "daemons of the VM, 3 to 5 (default 3); the job has N + 1 ranks",
         in_range(3, 5, &o->daemons)},
        {"--timeout", "S", "a job still running S seconds after its start is a HANG (default 60)",
         in_range(5, 3600, &o->timeout_s)},
        {"--steps", "N", "rounds of the job (default 20)", in_range(1, 100000, &o->steps)},
        {"--step-ms", "MS", "ms per round (default 80)", in_range(1, 10000, &o->step_ms)},
        {"--drd-ops", "N", "operations of the DRD register workload (default 2000; 0: none)",
         in_range(0, 10000000, &o->drd_ops)},
        {"--drd-clients", "N", "register clients per daemon (default 2)", in_range(1, 64, &o->drd_clients_per_daemon)},
        {"--no-netns", "", "daemons on loopback even as root (no link cuts, no partitions)",
         [o](const std::string &) {
             o->netns = false;
             return true;
         }},
        {"--keep-logs", "DIR", "keep the output of every trial that did not end as expected, and the daemons' logs",
         as_given(&o->keep_logs)},
        {"--ftmpirun", "PATH", "the launcher (default: the one built with this program)", as_given(&o->ftmpirun)},
        {"--program", "PATH", "the checked job (default: the chaos_job built with this program)",
         as_given(&o->program)},
    };
}

}  // namespace

std::optional<int> parse_options(int argc, char **argv, Options *o) {
    auto table = settings(o);
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--help" || arg == "-h") {
            std::printf("chaos_soak — fault injection into checked FT-MPI jobs and DRD registers on a VM\n\n");
            for (const auto &s : table) std::printf("  %-12s %-5s %s\n", s.name, s.value, s.help);
            return 0;
        }
        const Setting *match = nullptr;
        for (const auto &s : table)
            if (arg == s.name) match = &s;
        if (!match) {
            std::fprintf(stderr, "chaos_soak: unknown option %s (see --help)\n", arg.c_str());
            return 2;
        }
        std::string value;
        if (*match->value) {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "chaos_soak: %s needs %s\n", arg.c_str(), match->value);
                return 2;
            }
            value = argv[++i];
        }
        if (!match->set(value)) {
            std::fprintf(stderr, "chaos_soak: bad value for %s: %s\n", arg.c_str(), value.c_str());
            return 2;
        }
    }
    return std::nullopt;
}

}  // namespace harness::chaos
