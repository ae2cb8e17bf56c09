// slidesim's output: the per-method tables on a stream, and the plot data
// (CSV files and gnuplot scripts) in a directory.
#pragma once

#include <harness/placement/simulation.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace slidesim {

struct MethodRun {
    harness::placement::Method method;
    harness::placement::SimulationResult result;
};

void print_header(std::ostream &out, const harness::placement::SimulationSpec &spec);
void print_table(std::ostream &out, const MethodRun &run);

// Writes collisions.csv, selection.csv, collisions.gp and selection.gp into
// `dir` (created if missing). Throws std::runtime_error when it cannot write.
void write_plot_data(const std::string &dir, const harness::placement::SimulationSpec &spec,
                     const std::vector<MethodRun> &runs);

// Runs gnuplot on the scripts when it is on PATH; says what it did on `out`.
void draw_plots(std::ostream &out, const std::string &dir);

}  // namespace slidesim
