// libftmpi's logger (ftmpi/src/runtime/log.*): the prefix with the job and
// the rank, the level's filter, one line per message. The settings are read
// once per process, so the environment is set before the first message.
#include "runtime/log.hpp"

#include <doctest/doctest.h>

#include <cstdlib>
#include <string>
#include <unistd.h>

namespace {

// What the calls in `body` write on stderr.
template <class Body>
std::string stderr_of(Body body) {
    int pipe_fds[2];
    REQUIRE(::pipe(pipe_fds) == 0);
    const int saved = ::dup(STDERR_FILENO);
    ::dup2(pipe_fds[1], STDERR_FILENO);
    body();
    ::dup2(saved, STDERR_FILENO);
    ::close(saved);
    ::close(pipe_fds[1]);
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
    ::close(pipe_fds[0]);
    return out;
}

}  // namespace

TEST_CASE("FTMPI_LOG_LEVEL=info: info and above, each line with the job and the rank") {
    setenv("FTMPI_LOG_LEVEL", "info", 1);
    setenv("FTMPI_JOB", "7", 1);
    setenv("FTMPI_RANK", "2", 1);
    using namespace ftmpi::log;
    CHECK(enabled(Level::error));
    CHECK(enabled(Level::warn));
    CHECK(enabled(Level::info));
    CHECK_FALSE(enabled(Level::debug));
    const std::string out = stderr_of([] {
        error("MPI_Init failed on rank %d: %s", 2, "why");
        warn("comm driver %s not used", "shm");
        info("notifier: world rank %d failed", 1);
        debug("not printed");
    });
    CHECK(out ==
          "FT-MPI[job 7 rank 2] error: MPI_Init failed on rank 2: why\n"
          "FT-MPI[job 7 rank 2] warn: comm driver shm not used\n"
          "FT-MPI[job 7 rank 2] info: notifier: world rank 1 failed\n");

    // A message longer than the line buffer is cut, and still ends the line.
    const std::string long_out = stderr_of([] { warn("%s", std::string(5000, 'x').c_str()); });
    CHECK(long_out.size() < 2100);
    CHECK(long_out.back() == '\n');
    CHECK(long_out.starts_with("FT-MPI[job 7 rank 2] warn: xxx"));
}
