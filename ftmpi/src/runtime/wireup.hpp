// Wire-up: how the ranks of a job learn each other's
// contact address (FTMPI_WIREUP).
//
//   dir:<path>  each rank writes <path>/<rank> atomically (write + rename)
//               and reads the files of the ranks it connects to. One host.
//   drd:        contacts are records ftmpi/<job>/contact/<rank> in the VM's
//               replicated database, through the daemon at HARNESS_HCORE.
//
// Every rank reads every other rank's record: a record is the rank's card
// (transport/card.hpp), which says which comm driver reaches it. A REBUILD replacement (FTMPI_RESTARTED=1) overwrites
// its rank's record with its own and reads every other rank's record as it
// is now (dead ranks' records included: the transport finds out).
//
// While a first-incarnation rank waits for a contact, it also listens to the
// VM's failure notices (startup_failures.hpp): a rank known to have ended
// (killed, exited, or lost with its daemon) is not waited for. Its card is
// left empty and it is listed in Contacts::ended, so MPI_Init starts without
// it and declares it failed.
#pragma once

#include <chrono>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace ftmpi::runtime {

struct JobInfo {
    std::string job;  // FTMPI_JOB
    // This process's world rank in the job (FTMPI_WORLD_BASE + FTMPI_RANK),
    // and the number of world ranks the job had when it started
    // (FTMPI_WORLD_RANKS): every contact this process reads is one of those.
    int rank = 0;
    int size = 1;
    // Its MPI_COMM_WORLD: world ranks world_base..world_base+world_size-1
    // (FTMPI_WORLD_BASE, FTMPI_SIZE); world_base > 0 for a spawned process.
    int world_base = 0;
    int world_size = 1;
    std::string wireup;  // FTMPI_WIREUP
    // World ranks that are no process of the job (FTMPI_WORLD_GAPS: numbers
    // the job gave another job's processes, skipped by the launcher): no
    // card is waited for; absent[r] != 0.
    std::vector<char> absent;
    bool is_absent(int r) const { return r >= 0 && r < static_cast<int>(absent.size()) && absent[r]; }
    // A replacement (FTMPI_RESTARTED=1): FTMPI_INCARNATION (> 0), FTMPI_ROUND.
    bool restarted = false;
    int incarnation = 0;
    int round = 0;
};

class StartupFailures;

struct Contacts {
    // Every rank's card: empty for this rank and for the ranks in `ended`.
    std::vector<std::string> cards;
    // Ranks that ended before their card was found, with the reason.
    std::map<int, std::string> ended;
};

// How long a wait for contacts or connections lasts before the wire-up
// looks at the failure notices again.
inline constexpr std::chrono::milliseconds wireup_slice{250};

// Publishes `contact` and returns every rank's (its own entry empty); for a
// replacement, every other rank's record present now. `notices` (made for
// this job) stays with the caller, which asks it again while it connects.
// Throws std::runtime_error with the reason.
Contacts exchange_contacts(const JobInfo &, const std::string &contact, std::chrono::milliseconds timeout,
                           StartupFailures &notices);

// A replacement's second look at one rank's record (a fellow replacement's,
// which exchange_contacts may have read before the fellow wrote its new
// one): the record as it is now, "" when there is none. Throws
// std::runtime_error when the wire-up cannot be read.
std::string reread_contact(const JobInfo &, int rank);

// The address this rank listens on for its peers: 127.0.0.1 for dir:
// (single host); for drd: FTMPI_ADDRESS if set, else this host's first
// non-loopback IPv4 address.
std::string listen_host(const JobInfo &);

// Implementations per scheme.
Contacts exchange_dir(const std::string &path, const JobInfo &, const std::string &contact,
                      std::chrono::milliseconds timeout, StartupFailures &notices);
Contacts exchange_drd(const JobInfo &, const std::string &contact, std::chrono::milliseconds timeout,
                      StartupFailures &notices);
std::string reread_contact_dir(const std::string &path, int rank);
std::string reread_contact_drd(const JobInfo &, int rank);

}  // namespace ftmpi::runtime
