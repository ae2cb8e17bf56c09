// job_cleanup.hpp — what a job leaves on this host and how it is removed.
//
// A process started with FTMPI_JOB=<job> in its request's environment belongs
// to that MPI job. When such a process ends, its process group is killed (the
// helpers it started die with it), and when the last process of the job on
// this daemon has ended, the job's shared-memory files are removed:
// /dev/shm/ftmpi.<job>.*, where <job> has every character outside
// [A-Za-z0-9_-] replaced by '_' (ranks create them with shm_open/mkfifo
// under that name, so a rank killed with kill -9 leaves nothing behind).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace harness::vm::spawn {

// FTMPI_JOB's value in a request's environment ("K=V" entries, the last one
// wins); empty when absent.
std::string job_of(const std::vector<std::string> &env);

// "ftmpi.<sanitized job>." — the prefix of the job's files in /dev/shm.
std::string job_shm_prefix(const std::string &job);

// Removes every entry of dir whose name starts with the job's prefix;
// returns how many were removed. Never throws.
int remove_job_segments(const std::string &job, const std::filesystem::path &dir = "/dev/shm");

} // namespace harness::vm::spawn
