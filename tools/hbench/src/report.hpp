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
    std::string daemons; // how the daemons were reached
};

// The method's median over its baseline's median; negative when either is missing.
double ratio(const Report &r, const MethodResult &m);

void print_table(std::ostream &out, const Report &r);
void print_json(std::ostream &out, const Report &r);

} // namespace hbench
