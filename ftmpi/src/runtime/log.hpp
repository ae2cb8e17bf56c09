// libftmpi's messages on stderr: one line each, at a level, filtered by
// FTMPI_LOG_LEVEL (error, warn, info, debug; warn by default; FTMPI_VERBOSE=1
// raises it to at least info). Each line starts with "FT-MPI", the job id and
// the rank when the launcher gave them, and the level:
//   FT-MPI[job 3 rank 2] warn: comm driver shm not used ...
// A line is formatted into a buffer and written with one write(2), so lines
// of several threads never mix. Not for signal handlers (vsnprintf); libftmpi
// installs none.
#pragma once

namespace ftmpi::log {

enum class Level { error, warn, info, debug };

// Whether a message at `level` is printed (to skip building one that is not).
bool enabled(Level level);

// The level FTMPI_LOG_LEVEL chose, or the one set_level set since (the
// MPI_T control variable FTMPI_LOG_LEVEL writes it at run time).
Level level();
void set_level(Level chosen);

void error(const char *format, ...) __attribute__((format(printf, 1, 2)));
void warn(const char *format, ...) __attribute__((format(printf, 1, 2)));
void info(const char *format, ...) __attribute__((format(printf, 1, 2)));
void debug(const char *format, ...) __attribute__((format(printf, 1, 2)));

}  // namespace ftmpi::log
