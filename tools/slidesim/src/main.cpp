// slidesim: the maximum number of message collisions of a 5-point (2D) or
// 7-point (3D) stencil after failed hosts are substituted by spare hosts with
// the 0D … qD sliding methods or a hybrid (README.md).
#include "report.hpp"
#include "trace.hpp"

#include <harness/placement/simulation.hpp>

#include <CLI/CLI.hpp>

#include <iostream>
#include <stdexcept>

int main(int argc, char **argv) {
    CLI::App app{"slidesim: message collisions of a stencil after spare-host substitutions (sliding methods)"};
    std::string grid_text;
    bool torus = false;
    std::string spares;
    std::vector<std::string> methods;
    harness::placement::SimulationSpec spec;
    std::string out_dir;
    app.add_option("--grid", grid_text, "host grid, e.g. 10x10 or 6x6x6 (dimension 0 first)")->required();
    app.add_flag("--torus", torus, "the network is a torus (default: mesh)");
    app.add_option("--spares", spares, "spare pattern qD(r,s) (default: qD(2,1) for a q-dimensional grid)");
    app.add_option("--method", methods,
                   "substitution method, repeatable: 0d, 1d, 2d, …, qd, hybrid(2D+1D+0D), hybrid(all), hybrid(-2D) "
                   "(default: 0d and hybrid(all))");
    app.add_option("--failures", spec.failures, "failed hosts, 1 … N, per sequence")
        ->capture_default_str()
        ->check(CLI::Range(1, 1 << 20));
    app.add_option("--samples", spec.samples,
                   "random failure sequences per method; 0: exhaustive search when it needs at most "
                   "--exhaustive-limit sequences, else 10000 samples")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    app.add_option("--exhaustive-limit", spec.exhaustive_limit, "largest exhaustive search")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    app.add_option("--seed", spec.seed, "random seed of the sampling")->capture_default_str();
    app.add_flag("--periodic", spec.periodic, "periodic stencil (the logical grid wraps)");
    bool working_only = false;
    app.add_flag("--fail-working-only", working_only,
                 "only hosts of the working block fail, never a spare that took over a rank (the paper's model)");
    app.add_option("--out", out_dir,
                   "write collisions.csv, selection.csv and gnuplot scripts there; PNGs too when gnuplot is "
                   "installed");
    std::vector<std::string> fail_hosts;
    app.add_option("--fail", fail_hosts,
                   "trace this failure sequence instead of simulating: hosts as numbers or coordinates (3:2), "
                   "repeatable or comma-separated; prints each substitution and the final map")
        ->delimiter(',');
    bool json = false;
    app.add_flag("--json", json, "with --fail: one JSON document on stdout");
    CLI11_PARSE(app, argc, argv);
    spec.spares_fail = !working_only;

    try {
        spec.grid = harness::placement::HostGrid::parse(grid_text, torus);
        const int q = spec.grid.dims();
        spec.pattern = harness::placement::SparePattern::parse(
            spares.empty() ? std::to_string(q) + "D(" + std::to_string(std::min(q, 2)) + ",1)" : spares);
        spec.pattern.check(spec.grid);
        if (!fail_hosts.empty()) {
            if (methods.size() > 1) throw std::invalid_argument("--fail traces one --method");
            const auto method = harness::placement::Method::parse(methods.empty() ? "hybrid(all)" : methods[0], q);
            std::vector<int> hosts;
            for (const std::string &h : fail_hosts) hosts.push_back(slidesim::parse_host(spec.grid, h));
            return slidesim::trace(std::cout, spec.grid, spec.pattern, method, hosts, spec.periodic, json);
        }
        if (json) throw std::invalid_argument("--json goes with --fail");
        if (methods.empty()) methods = {"0d", "hybrid(all)"};
        std::vector<slidesim::MethodRun> runs;
        for (const std::string &text : methods) runs.push_back({harness::placement::Method::parse(text, q), {}});

        slidesim::print_header(std::cout, spec);
        for (slidesim::MethodRun &run : runs) {
            spec.method = run.method;
            run.result = harness::placement::simulate(spec);
            slidesim::print_table(std::cout, run);
        }
        if (!out_dir.empty()) {
            slidesim::write_plot_data(out_dir, spec, runs);
            slidesim::draw_plots(std::cout, out_dir);
        }
    } catch (const std::exception &e) {
        std::cerr << "slidesim: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
