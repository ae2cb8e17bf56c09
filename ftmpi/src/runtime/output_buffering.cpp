// Ranks' stdout is line-buffered under a launcher, as under Open MPI's
// mpirun: a line a rank prints reaches ftmpirun even when the rank is killed
// right after (with the C library's default, a pipe gets full buffering and
// the last lines die with the process).
//
// Done in a constructor of libftmpi, before main() runs, so the buffering is
// set before the program's first output (setvbuf must come before any I/O on
// the stream) and also covers what is printed before MPI_Init. Only under a
// launcher (FTMPI_JOB set) and only when stdout is not a terminal (a terminal
// is line-buffered already). FTMPI_OUTPUT_BUFFERING (ftmpirun
// --output-buffering) chooses: "line" (the default), "full" (the C library's
// default: faster for ranks that print a lot), "none" (unbuffered). A pty per
// rank would give the same line buffering to non-MPI programs too, but it
// changes what isatty() says, turns "\n" into "\r\n" and merges stderr into
// stdout; the setvbuf is one call and changes nothing else.
#include "settings/values.hpp"

#include <cstdio>
#include <unistd.h>

namespace {

__attribute__((constructor)) void ftmpi_set_output_buffering() {
    using ftmpi::settings::Id;
    const ftmpi::settings::Values &env = ftmpi::settings::current();
    if (!env.is_set(Id::job)) return;
    const std::string &mode = env.text(Id::output_buffering);
    if (mode == "full") return;
    if (mode == "none") {
        std::setvbuf(stdout, nullptr, _IONBF, 0);
        return;
    }
    if (::isatty(STDOUT_FILENO)) return;
    std::setvbuf(stdout, nullptr, _IOLBF, 0);
}

}  // namespace
