// job_cleanup.hpp — what a job leaves on this host and how it is removed.
//
// A process started with FTMPI_JOB=<job> in its request's environment belongs
// to that MPI job. When such a process ends, its process group is killed (the
// helpers it started die with it), and when the last process of the job on
// this daemon has ended, the shared-memory files of the ranks this daemon
// started are removed: /dev/shm/ftmpi.<job>.<rank>.<incarnation> and the
// names that continue it after a '.' (the inbox and its wake FIFO), where
// <job> has every character outside [A-Za-z0-9_-] replaced by '_' (ranks
// create them with shm_open/mkfifo under that name, so a rank killed with
// kill -9 leaves nothing behind). Only those: ranks started by other daemons
// that share this /dev/shm (network namespaces of one machine) still use
// theirs.
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

// "ftmpi.<sanitized job>.<rank>.<incarnation>" — the name of a job process's
// files in /dev/shm (FTMPI_RANK, FTMPI_INCARNATION, 0 when unset); empty
// when the process is no rank of a job.
std::string rank_files_name(const std::vector<std::string> &env);

// Removes the entries of dir named one of `names` or starting with one and a
// '.' (one pass over dir); returns how many were removed. Never throws.
int remove_rank_files(const std::vector<std::string> &names, const std::filesystem::path &dir = "/dev/shm");

// The ledger of the rank files a daemon's job processes made:
// <root>/var/spawn_notify.shm, one name a line (empty path for an empty
// root). A daemon started again after a kill -9 removes what its
// predecessor's ranks left, also when they had ended already (their daemon
// was not there to clean up).
std::filesystem::path rank_files_ledger(const std::string &root);
// Adds a name; removes names. Never throw (a ledger that cannot be written
// only costs the cleanup after a daemon's kill -9).
void ledger_add(const std::filesystem::path &ledger, const std::string &name);
void ledger_remove(const std::filesystem::path &ledger, const std::vector<std::string> &names);

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
// this process, and removes their /dev/shm files and those the ledger of
// `owner` (the daemon's root) lists, then empties it. Never throws.
Leftovers kill_leftovers(const std::string &owner);

}  // namespace harness::vm::spawn
