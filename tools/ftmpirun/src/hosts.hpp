// hosts.hpp — which daemons run the job, with how many slots, and which rank
// goes where. Pure functions over the VM's member list, so they are tested
// without a VM.
//
// A host is a daemon of the VM. `--host` and `--hostfile` name daemons by
// member id, by "HOST:PORT" address, or by HOST alone when exactly one
// daemon runs there; each entry may add ":SLOTS" (hostfile: "NAME slots=N"
// or "NAME:N"); a name repeated adds its slots. Without either, every alive
// member gets default_slots. A hostfile line may also give the host's place
// in a host grid ("coord=3,4", for --spares and sliding substitution) and
// the network switch it hangs off ("switch=s1", for the network detector).
//
// Placement is by slot: rank 0 fills the first host's slots, then the next
// host's, … Beyond the total slots (only with oversubscribe) ranks go round
// robin over the hosts, one each.
#pragma once

#include <harness/common/endpoint.hpp>
#include <harness/common/result.hpp>

#include <optional>
#include <string>
#include <vector>

namespace harness::ftmpirun {

// s without its leading and trailing blanks (space, tab, CR): a line of a
// hostfile or a rankfile.
std::string trim(const std::string &s);

struct MemberView {
    std::string id;
    Endpoint tcp;
    bool alive = true;
};

struct Host {
    std::string member_id;
    Endpoint tcp;
    int slots = 1;
    std::vector<int> coord;   // its place in the host grid; empty: not given
    std::string switch_name;  // empty: not given
};

// One name with its slots (0 = not given) and its hostfile attributes.
struct HostEntry {
    std::string name;
    int slots = 0;
    std::vector<int> coord;
    std::string switch_name;
};

// "a,b:2,127.0.0.1:7001:4" → entries (the ":N" suffix is split off later, once
// we know whether "HOST:PORT" alone names a daemon).
std::vector<HostEntry> parse_host_list(const std::string &list);
// Hostfile text: one host per line, "# comments", "NAME slots=N" or "NAME:N",
// optionally "coord=X,Y[,Z…]" and "switch=NAME".
Result<std::vector<HostEntry>> parse_hostfile(const std::string &text);

Result<std::vector<Host>> select_hosts(const std::vector<MemberView> &members, const std::vector<HostEntry> &entries,
                                       int default_slots);

// rank → index into hosts.
Result<std::vector<std::size_t>> place_ranks(const std::vector<Host> &hosts, int np, bool oversubscribe);

// Where a replacement for a failed rank starts (README.md, "Replacements"):
// the failed rank's own daemon while it is alive (the program's files and the
// host's resources are there), else the alive candidate running the fewest of
// the job's processes (the spare-node idea: load spreads over the survivors),
// the first such in candidate order on a tie. candidates: member id → number
// of the job's live processes on it, in preference order; an empty result
// means no daemon is left.
struct Candidate {
    std::string member_id;
    int live_processes = 0;
};
std::optional<std::string> choose_replacement_host(const std::string &failed_on, bool failed_on_alive,
                                                   const std::vector<Candidate> &alive_candidates);

// The daemon that runs every process the job will ever have, when there is
// one: then its ranks may wire up through a directory on that host and
// listen on the loopback address (FTMPI_WIREUP=dir:); otherwise they must
// use the VM's DRD and an address the other hosts reach (drd:). Besides the
// ranks' daemons (rank_daemons), a job that places processes beyond them —
// hot standbys, which go to a host running no rank, or a recovery policy's
// replacements, which may go to any host of the job — counts every host of
// the job (job_hosts). Without that, replacements stay on the ranks' daemon.
std::optional<std::string> single_job_daemon(const std::vector<std::string> &rank_daemons,
                                             const std::vector<std::string> &job_hosts, bool places_beyond_ranks);

}  // namespace harness::ftmpirun
