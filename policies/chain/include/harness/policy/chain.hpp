// harness/policy/chain.hpp — a job's recovery policy, for the launcher.
//
// A policy file (JSON, policies/README.md) names a chain of detector
// components, optional configurations of protocol components, and an
// optional placement component. Policy::from_file loads every component it
// names as an application-level plugin (hlib::DirectPlugin: <root>/lib,
// <root>/cache, then the local daemon, which fetches it from its signed
// repositories and verifies it) and opens each with its configuration, so a
// typo or a bad value fails before the job starts, with one line naming the
// file, the component and the problem.
//
// When a rank fails, the launcher asks decide() which protocol recovers it
// (the first detector in order that takes the fault), then recover() runs
// that protocol against the launcher's actions; a migration asks the
// placement opened for the job (open_placement) which ranks move where.
//
// One thread uses a Policy and its Placements at a time.
#pragma once

#include <harness/common/result.hpp>
#include <harness/hlib/hlib.hpp>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace harness::policy {

// What the launcher knows of one fault (harness_policy_fault).
struct Fault {
    int rank = 0, incarnation = 0, host = -1;
    std::string host_name;
    bool host_failed = false;
    int host_failures = 0;
    std::string switch_name;
    int switch_hosts = 0, switch_failed_hosts = 0;
};

// A detector's choice; detector is the component that took the fault ("" when none did).
struct Decision {
    std::string protocol;
    bool avoid_switch = false;
    std::string reason;
    std::string detector;
};

// What the launcher can do; each returns "" on success or a one-line reason for refusing.
class Launcher {
public:
    virtual ~Launcher() = default;
    virtual std::string start_on(int rank, int host) = 0;
    virtual std::string migrate(int rank, bool avoid_switch) = 0;
    virtual std::string promote(int rank) = 0;
    virtual void leave_out(int rank, const std::string &reason) = 0;
};

// A job laid out on a host grid (harness_policy_layout): hosts and ranks
// numbered row-major with dimension 0 fastest; rank_extents has as many
// entries as host_extents; spares is a pattern such as "2D(2,1)" or "".
struct Layout {
    std::vector<int> host_extents;
    bool torus = false;
    std::string spares;
    std::vector<int> rank_extents;
    std::vector<int> rank_host;
    std::vector<int> failed_hosts;
};

struct Move {
    int rank = 0, from = 0, to = 0;
};

// method: the one that handled it ("1D", "0D", …; "" when the host held no
// rank); moves in pipeline order.
struct Substitution {
    std::string method;
    std::vector<Move> moves;
};

// One opened placement plugin instance for one job.
class Placement {
public:
    // Host `host` is lost: the moves that replace it. Error: the refusal's
    // one-line reason (nothing changed; the host stays usable).
    Result<Substitution> fail(int host);
    // The same with no move onto a host of `avoid` (the hosts behind a switch
    // the network detector wants avoided); refused when every method needs
    // one, or when the plugin cannot avoid hosts.
    Result<Substitution> fail(int host, const std::vector<int> &avoid);
    ~Placement();
    Placement(const Placement &) = delete;
    Placement &operator=(const Placement &) = delete;

    struct State;

private:
    explicit Placement(std::unique_ptr<State> state);
    friend class Policy;
    std::unique_ptr<State> state_;
};

class Policy {
public:
    // Parses the JSON policy, loads every component it names with
    // hlib::DirectPlugin from connect.root, asking the daemon `connect`
    // names, and opens each with its configuration. Any problem: an error
    // whose message is one line naming the file, the component and the problem.
    static Result<std::unique_ptr<Policy>> from_file(const std::filesystem::path &file,
                                                     const hlib::ConnectOptions &connect);
    static Result<std::unique_ptr<Policy>> from_text(const std::string &json, const std::string &origin,
                                                     const hlib::ConnectOptions &connect);
    // The built-in policy for a job with spares but no policy file:
    // detectors physical → MIGRATE, process → RESTART; placement sliding
    // with `method` (default hybrid(all)).
    static std::string default_text(const std::string &method);

    // The first detector in order that takes the fault; none: {"RESTART", false, "no detector took it", ""}.
    Decision decide(const Fault &fault) const;
    // Runs the decided protocol component against the launcher: "" or the reason it could not recover.
    std::string recover(const Fault &fault, const Decision &decision, Launcher &launcher) const;
    bool names_placement() const;
    // Opens the placement the policy names for this job's layout (error: one line).
    Result<std::unique_ptr<Placement>> open_placement(const Layout &layout) const;
    // One line: "detectors repeated(threshold=2) > physical > process; placement sliding(method=hybrid(2D+1D+0D))".
    std::string describe() const;

    ~Policy();
    Policy(const Policy &) = delete;
    Policy &operator=(const Policy &) = delete;

    struct State;

private:
    explicit Policy(std::unique_ptr<State> state);
    std::unique_ptr<State> state_;
};

}  // namespace harness::policy
