// job_cleanup.hpp — what a job leaves on this host and how it is removed.
//
// A process started with FTMPI_JOB=<job> in its request's environment belongs
// to that MPI job. When such a process ends, its process group is killed (the
// helpers it started die with it), and when the last process of the job on
// this daemon has ended, the job's shared-memory files are removed:
// /dev/shm/ftmpi.<job>.*, where <job> has every character outside
// [A-Za-z0-9_-] replaced by '_' (ranks create them with shm_open/mkfifo
// under that name, so a rank killed with kill -9 leaves nothing behind).
//
// Job processes also carry HARNESS_SPAWN_OWNER=<the daemon's root>. Only one
// daemon runs on a root, so when spawn_notify starts and finds processes
// with its root's mark and an FTMPI_JOB, they are what a daemon that died
// (kill -9) left: their process groups are killed and their jobs' files
// removed (kill_leftovers).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace harness::vm::spawn {

// The job a request's process belongs to ("K=V" entries, the last one wins):
// FTMPI_JOB, or "<FTMPI_JOB>-<FTMPI_JOB_KEY>" when ftmpirun set a key (job
// ids repeat across VMs on one host); empty without FTMPI_JOB.
std::string job_of(const std::vector<std::string> &env);

// "ftmpi.<sanitized job>." — the prefix of the job's files in /dev/shm.
std::string job_shm_prefix(const std::string &job);

// Removes every entry of dir whose name starts with the job's prefix;
// returns how many were removed. Never throws.
int remove_job_segments(const std::string &job, const std::filesystem::path &dir = "/dev/shm");

// The variable that marks a job process with the root of the daemon that
// started it.
inline constexpr const char *kOwnerEnv = "HARNESS_SPAWN_OWNER";

// What kill_leftovers did, for the log.
struct Leftovers {
    int processes = 0;
    int files = 0;
};

// Kills (SIGKILL, with their process groups) every process of this user
// whose environment has FTMPI_JOB and HARNESS_SPAWN_OWNER=owner, other than
// this process, and removes the /dev/shm files of their jobs. Never throws.
Leftovers kill_leftovers(const std::string &owner);

}  // namespace harness::vm::spawn
