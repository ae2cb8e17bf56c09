// report.hpp — the benchmark's output: a readable table, or (--json) one
// JSON document.
#pragma once

#include "methods.hpp"
#include "raw_roundtrip.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace hbench {

struct Report {
    std::vector<MethodResult> methods;
    RawResults raw;
    Summary plain_call;
    MessageSize stream;
    MessageSize datagram;
    Plan plan;
    std::string daemons;      // how the daemons were reached
    double load_before = -1;  // 1-minute load average when the run started (busy machine: noisy figures)
};

// The 1-minute load average (/proc/loadavg), or -1.
double load_average();

// The method's median over its baseline's median; negative when either is missing.
double ratio(const Report &r, const MethodResult &m);

void print_table(std::ostream &out, const Report &r);
void print_json(std::ostream &out, const Report &r);

}  // namespace hbench
