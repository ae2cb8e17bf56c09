// ftmpi_tune: measures every collective algorithm of libftmpi at this job's
// rank count and writes a decision table (ftmpi/src/coll/table.hpp) naming
// the fastest per message size. A plain MPI program, run with ftmpirun:
//
//   ftmpirun -np 8 ftmpi_tune --out coll_table.txt
//   FTMPI_COLL_TABLE=coll_table.txt ftmpirun -np 8 ./app
//
// Each algorithm is forced with FTMPI_Coll_force; each point is the median
// over repetitions of the slowest rank's time for one call (every call
// starts after a barrier). Only rank 0 writes. The rows name this rank
// count only, so tables made at several counts can be concatenated.
#include "collectives.hpp"

#include <mpi-ext.h>
#include <mpi.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <vector>

namespace {

struct Options {
    bool quick = false;
    std::string out = "ftmpi_coll_table.txt";
    size_t max_bytes = size_t{1} << 20;
    int reps = 0;  // 0: by mode and size
    std::vector<std::string> only;
};

const char *usage = "usage: ftmpi_tune [--quick] [--out FILE] [--max-bytes N] [--reps N] [--only a,b,...]\n"
                    "  --quick       few sizes and repetitions (tests; the numbers mean little)\n"
                    "  --out FILE    where rank 0 writes the table (default ftmpi_coll_table.txt)\n"
                    "  --max-bytes N largest message measured (default 1048576)\n"
                    "  --reps N      timed calls per point (default 15, 7 from 128 KiB, 3 with --quick)\n"
                    "  --only LIST   only these collectives (table names, comma-separated)\n";

bool parse(int argc, char **argv, Options *o, std::string *error) {
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&](const char *what) -> const char * {
            if (i + 1 >= argc) {
                *error = a + " needs " + what;
                return nullptr;
            }
            return argv[++i];
        };
        if (a == "--quick") {
            o->quick = true;
        } else if (a == "--out") {
            const char *v = value("a file name");
            if (!v) return false;
            o->out = v;
        } else if (a == "--max-bytes" || a == "--reps") {
            const char *v = value("a number");
            if (!v) return false;
            char *end = nullptr;
            const long long n = std::strtoll(v, &end, 10);
            if (*end != '\0' || n < 1 || n > (1LL << 30)) {
                *error = a + " " + v + ": not a number from 1 to 2^30";
                return false;
            }
            if (a == "--reps")
                o->reps = static_cast<int>(n);
            else
                o->max_bytes = static_cast<size_t>(n);
        } else if (a == "--only") {
            const char *v = value("a list of collectives");
            if (!v) return false;
            std::string list = v;
            for (size_t at = 0; at <= list.size();) {
                const size_t comma = std::min(list.find(',', at), list.size());
                if (comma > at) o->only.push_back(list.substr(at, comma - at));
                at = comma + 1;
            }
        } else {
            *error = "unknown argument '" + a + "'";
            return false;
        }
    }
    return true;
}

// 8 B, 32 B, ... (powers of 4) up to max, and max itself; --quick: 8 B,
// 256 B, 8 KiB (powers of 32).
std::vector<size_t> sizes(const Options &o) {
    std::vector<size_t> out;
    const size_t factor = o.quick ? 32 : 4;
    const size_t top = o.quick ? std::min<size_t>(o.max_bytes, 8192) : o.max_bytes;
    for (size_t s = 8; s <= top; s *= factor) out.push_back(s);
    if (out.empty() || out.back() != top) out.push_back(top);
    return out;
}

int reps_for(const Options &o, size_t bytes) {
    if (o.reps > 0) return o.reps;
    if (o.quick) return 3;
    return bytes >= 128 * 1024 ? 7 : 15;
}

// Median over repetitions of the slowest rank's time, in seconds (every
// rank gets the same value). -1 when a call failed.
double measure(const std::string &name, size_t bytes, int reps, ftmpi_tune::Buffers &buffers) {
    std::vector<double> times(static_cast<size_t>(reps) + 1, 0.0);
    int failed = 0;
    for (int warm = 0; warm < 2; ++warm)
        failed |= ftmpi_tune::run_once(name, bytes, buffers, MPI_COMM_WORLD) != MPI_SUCCESS;
    for (int i = 0; i < reps; ++i) {
        MPI_Barrier(MPI_COMM_WORLD);
        const double start = MPI_Wtime();
        failed |= ftmpi_tune::run_once(name, bytes, buffers, MPI_COMM_WORLD) != MPI_SUCCESS;
        times[static_cast<size_t>(i)] = MPI_Wtime() - start;
    }
    times.back() = failed;
    MPI_Allreduce(MPI_IN_PLACE, times.data(), reps + 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (times.back() > 0) return -1;
    times.pop_back();
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

struct Point {
    size_t bytes;
    std::string best;
    std::string timings;  // "ring 12.3us, bruck 10.1us" for the comment
};

// "pipeline:64K" -> "pipeline seg=64K": the table's spelling of a choice.
std::string table_choice(const std::string &candidate) {
    const size_t colon = candidate.find(':');
    if (colon == std::string::npos) return candidate;
    return candidate.substr(0, colon) + "  seg=" + candidate.substr(colon + 1);
}

void write_rows(std::FILE *f, const std::string &name, int ranks, const std::vector<Point> &points, bool sized) {
    for (const Point &p : points)
        std::fprintf(f, "#   %-14s %d ranks %8zu B: %s\n", name.c_str(), ranks, p.bytes, p.timings.c_str());
    if (!sized) {
        std::fprintf(f, "%-15s %-7d %-11s %s\n", name.c_str(), ranks, "*", table_choice(points[0].best).c_str());
        return;
    }
    // A run of sizes with the same winner is one row; a row starts at its
    // first measured size (the first row at 0) and ends where the next starts.
    size_t i = 0;
    while (i < points.size()) {
        size_t j = i;
        while (j + 1 < points.size() && points[j + 1].best == points[i].best) ++j;
        const size_t low = i == 0 ? 0 : points[i].bytes;
        std::string range = std::to_string(low) + "-";
        if (j + 1 < points.size()) range += std::to_string(points[j + 1].bytes - 1);
        std::fprintf(f, "%-15s %-7d %-11s %s\n", name.c_str(), ranks, range.c_str(),
                     table_choice(points[i].best).c_str());
        i = j + 1;
    }
}

}  // namespace

int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    int rank = 0, ranks = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    Options options;
    std::string error;
    if (!parse(argc, argv, &options, &error)) {
        if (rank == 0) std::fprintf(stderr, "ftmpi_tune: %s\n%s", error.c_str(), usage);
        MPI_Finalize();
        return 2;
    }

    std::FILE *out = nullptr;
    if (rank == 0) {
        out = std::fopen(options.out.c_str(), "w");
        if (out == nullptr)
            std::fprintf(stderr, "ftmpi_tune: cannot write %s: %s\n", options.out.c_str(), std::strerror(errno));
    }
    int ok = rank != 0 || out != nullptr;
    MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!ok) {
        MPI_Finalize();
        return 1;
    }
    if (out) {
        const std::time_t now = std::time(nullptr);
        char when[64];
        std::strftime(when, sizeof when, "%Y-%m-%d %H:%M:%S UTC", std::gmtime(&now));
        std::fprintf(out,
                     "# FT-MPI collective decision table written by ftmpi_tune%s at %d ranks, %s.\n"
                     "# Use: FTMPI_COLL_TABLE=<this file>. Format: ftmpi/src/coll/README.md.\n"
                     "# Comment lines give the median time of the slowest rank per algorithm.\n"
                     "# collective    ranks   bytes       algorithm  options\n",
                     options.quick ? " --quick" : "", ranks, when);
    }

    ftmpi_tune::Buffers buffers(options.max_bytes, ranks);
    const std::vector<size_t> all_sizes = sizes(options);
    int status = 0;
    for (const ftmpi_tune::Collective &c : ftmpi_tune::collectives(options.quick)) {
        if (!options.only.empty() && std::find(options.only.begin(), options.only.end(), c.name) == options.only.end())
            continue;
        std::vector<Point> points;
        for (size_t bytes : c.sized ? all_sizes : std::vector<size_t>{0}) {
            Point point{bytes, {}, {}};
            double best = -1;
            for (const std::string &candidate : c.candidates) {
                if (!ftmpi_tune::applies(c.name, candidate, bytes, ranks)) continue;
                if (FTMPI_Coll_force(c.name.c_str(), candidate.c_str()) != MPI_SUCCESS) {
                    status = 1;
                    continue;
                }
                const double t = measure(c.name, bytes, reps_for(options, bytes), buffers);
                char text[96];
                std::snprintf(text, sizeof text, "%s%s %.1fus", point.timings.empty() ? "" : ", ", candidate.c_str(),
                              t * 1e6);
                point.timings += t < 0 ? std::string(point.timings.empty() ? "" : ", ") + candidate + " failed" : text;
                if (t >= 0 && (best < 0 || t < best)) {
                    best = t;
                    point.best = candidate;
                }
            }
            FTMPI_Coll_force(c.name.c_str(), nullptr);
            if (point.best.empty()) {
                status = 1;
                continue;
            }
            points.push_back(point);
        }
        if (out && !points.empty()) {
            write_rows(out, c.name, ranks, points, c.sized);
            std::fprintf(out, "\n");
            std::fflush(out);
        }
    }
    if (out) {
        std::fclose(out);
        std::printf("ftmpi_tune: wrote %s (%d ranks)%s\n", options.out.c_str(), ranks,
                    status ? "; some points failed, see the comments" : "");
    }
    MPI_Finalize();
    return status;
}
