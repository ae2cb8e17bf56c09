// ftmpi_info: libftmpi's settings and their current values (README.md).
#include "report.hpp"

#include <cstring>
#include <iostream>

namespace {

const char usage[] = "usage: ftmpi_info [--markdown]\n"
                     "\n"
                     "Prints every setting of libftmpi, the FT-MPI library: its environment\n"
                     "variable, type and allowed values, default, the value this environment\n"
                     "gives it, and what it does. A value MPI_Init would refuse is marked\n"
                     "INVALID, and ftmpi_info then exits with status 1.\n"
                     "\n"
                     "  --markdown  the table as docs/ftmpi.md lists it (defaults, no current values)\n"
                     "  --help      this text\n";

}  // namespace

int main(int argc, char **argv) {
    bool markdown = false;
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--help") == 0 || std::strcmp(argv[i], "-h") == 0) {
            std::cout << usage;
            return 0;
        }
        if (std::strcmp(argv[i], "--markdown") == 0) {
            markdown = true;
            continue;
        }
        std::cerr << "ftmpi_info: unknown argument '" << argv[i] << "'\n" << usage;
        return 2;
    }
    if (markdown) {
        ftmpi::info::print_markdown(std::cout);
        return 0;
    }
    const ftmpi::settings::Values values(ftmpi::settings::Values::environment());
    const int invalid = ftmpi::info::print_text(std::cout, values);
    if (invalid == 0) return 0;
    std::cout.flush();
    for (const std::string &problem : values.problems()) std::cerr << "ftmpi_info: " << problem << "\n";
    return 1;
}
