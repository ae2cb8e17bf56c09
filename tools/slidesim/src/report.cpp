// Tables and plot data of slidesim.
#include "report.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <stdexcept>

namespace slidesim {

using harness::placement::FailureStats;
using harness::placement::SimulationSpec;

namespace {

std::ofstream open(const std::filesystem::path &path) {
    std::ofstream f(path);
    if (!f) throw std::runtime_error("cannot write " + path.string());
    return f;
}

double rate(long part, long whole) {
    return whole ? 100.0 * static_cast<double>(part) / whole : 0.0;
}

}  // namespace

void print_header(std::ostream &out, const SimulationSpec &spec) {
    out << "grid " << spec.grid.describe() << ", spares " << spec.pattern.describe() << ": "
        << spec.pattern.spare_count(spec.grid) << " of " << spec.grid.size() << " hosts (" << std::fixed
        << std::setprecision(2) << 100.0 * spec.pattern.spare_ratio(spec.grid) << " %, formula "
        << 100.0 * spec.pattern.spare_ratio_formula(spec.grid.size()) << " %), " << 2 * spec.grid.dims() + 1
        << "-point stencil" << (spec.periodic ? ", periodic" : "") << ", dimension-order routing; failing: "
        << (spec.spares_fail ? "any host holding a rank" : "working hosts only") << "\n";
}

void print_table(std::ostream &out, const MethodRun &run) {
    const auto &r = run.result;
    out << "\nmethod " << run.method.describe() << ": " << (r.exhaustive ? "exhaustive, " : "random sampling, ")
        << r.sequences << " sequences; failure-free C_max " << r.failure_free << "\n";
    out << std::setw(7) << "failed" << std::setw(11) << "handled" << std::setw(10) << "refused" << std::setw(6)
        << "best" << std::setw(9) << "average" << std::setw(7) << "worst";
    if (run.method.hybrid())
        for (int degree : run.method.degrees) out << std::setw(8) << std::to_string(degree) + "D %";
    out << "\n";
    for (std::size_t i = 0; i < r.per_failures.size(); ++i) {
        const FailureStats &s = r.per_failures[i];
        out << std::setw(7) << i + 1 << std::setw(11) << s.handled << std::setw(10) << s.refused;
        if (s.handled)
            out << std::setw(6) << s.best << std::setw(9) << std::fixed << std::setprecision(2) << s.average()
                << std::setw(7) << s.worst;
        else
            out << std::setw(6) << "-" << std::setw(9) << "-" << std::setw(7) << "-";
        if (run.method.hybrid())
            for (long n : s.selected) out << std::setw(8) << std::setprecision(1) << rate(n, s.handled);
        out << "\n";
    }
}

void write_plot_data(const std::string &dir, const SimulationSpec &spec, const std::vector<MethodRun> &runs) {
    const std::filesystem::path base(dir);
    std::error_code ec;
    std::filesystem::create_directories(base, ec);
    if (ec) throw std::runtime_error("cannot create " + dir + ": " + ec.message());

    std::ofstream c = open(base / "collisions.csv");
    c << "method,failed,handled,refused,best,average,worst\n";
    std::ofstream s = open(base / "selection.csv");
    s << "method,failed,degree,rate,accumulated\n";
    for (const MethodRun &run : runs) {
        std::vector<double> accumulated(run.method.degrees.size(), 0);
        double total = 0;
        for (std::size_t i = 0; i < run.result.per_failures.size(); ++i) {
            const FailureStats &f = run.result.per_failures[i];
            c << run.method.describe() << ',' << i + 1 << ',' << f.handled << ',' << f.refused << ',';
            if (f.handled)
                c << f.best << ',' << f.average() << ',' << f.worst << '\n';
            else
                c << ",,\n";
            total += static_cast<double>(f.handled);
            for (std::size_t d = 0; d < run.method.degrees.size(); ++d) {
                accumulated[d] += static_cast<double>(f.selected[d]);
                s << run.method.describe() << ',' << i + 1 << ',' << run.method.degrees[d] << 'D' << ','
                  << rate(f.selected[d], f.handled) << ',' << (total ? 100.0 * accumulated[d] / total : 0.0) << '\n';
            }
        }
    }

    const std::string title = spec.grid.describe() + ", " + spec.pattern.describe();
    std::ofstream g = open(base / "collisions.gp");
    g << "# C_max vs failed hosts: best, average, worst per method (gnuplot collisions.gp)\n"
      << "set datafile separator ','\nset terminal pngcairo size 900,600\nset output 'collisions.png'\n"
      << "set title 'Message collisions, " << title << "'\nset xlabel 'failed hosts'\n"
      << "set ylabel 'maximum messages on one link'\nset key top left\nplot \\\n";
    for (std::size_t i = 0; i < runs.size(); ++i) {
        const std::string m = runs[i].method.describe();
        const std::string filter = "(strcol(1) eq '" + m + "' ? ";
        const char *columns[] = {"best", "average", "worst"};
        for (int k = 0; k < 3; ++k)
            g << "  'collisions.csv' using 2:" << filter << "column(" << 5 + k << ") : 1/0) with lines lw "
              << (i == 0 ? 1 : 3) << " title '" << m << " " << columns[k] << "'"
              << (i + 1 == runs.size() && k == 2 ? "\n" : ", \\\n");
    }
    std::ofstream p = open(base / "selection.gp");
    p << "# Selection rate of each degree of a hybrid vs failed hosts (gnuplot selection.gp)\n"
      << "set datafile separator ','\nset terminal pngcairo size 900,600\nset output 'selection.png'\n"
      << "set title 'Selection rate, " << title << "'\nset xlabel 'failed hosts'\nset ylabel '% of handled failures'\n"
      << "set yrange [0:100]\nset key outside right\nplot \\\n";
    // Each (method, degree) series is picked by its rows, not filtered with
    // 1/0: selection.csv interleaves the degrees of a method per failure
    // count, so a filter leaves every point between undefined ones and
    // gnuplot draws no line. Row of (run, failure i, degree d), the header
    // skipped: the rows of the runs before + i * degrees + d.
    bool first = true;
    std::size_t row = 0;
    for (const MethodRun &run : runs) {
        const std::size_t degrees = run.method.degrees.size();
        const std::size_t rows = run.result.per_failures.size() * degrees;
        if (run.method.hybrid() && rows > 0)
            for (std::size_t d = 0; d < degrees; ++d) {
                p << (first ? "" : ", \\\n") << "  'selection.csv' skip 1 every " << degrees << "::" << row + d
                  << "::" << row + rows - 1 << " using 2:4 with linespoints pt 7 ps 0.5 title '"
                  << run.method.describe() << " " << run.method.degrees[d] << "D'";
                first = false;
            }
        row += rows;
    }
    if (first) p << "  NaN title 'no hybrid method in this run'";
    p << "\n";
}

void draw_plots(std::ostream &out, const std::string &dir) {
    if (std::system("command -v gnuplot >/dev/null 2>&1") != 0) {
        out << "gnuplot is not installed: wrote the data and scripts to " << dir
            << "; run 'gnuplot collisions.gp selection.gp' there to draw the PNGs\n";
        return;
    }
    const std::string command = "cd '" + dir + "' && gnuplot collisions.gp selection.gp";
    if (std::system(command.c_str()) == 0)
        out << "drew " << dir << "/collisions.png and " << dir << "/selection.png\n";
    else
        out << "gnuplot failed on the scripts in " << dir << "\n";
}

}  // namespace slidesim
