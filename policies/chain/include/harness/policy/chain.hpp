// PLACEHOLDER copy of the API promised to the plugins branch; replaced at merge.
#pragma once
#include <filesystem>
#include <harness/common/result.hpp>
#include <harness/hlib/hlib.hpp>
#include <memory>
#include <string>
#include <vector>
namespace harness::policy {
struct Fault {
    int rank = 0, incarnation = 0, host = -1;
    std::string host_name;
    bool host_failed = false;
    int host_failures = 0;
    std::string switch_name;
    int switch_hosts = 0, switch_failed_hosts = 0;
};
struct Decision {
    std::string protocol;
    bool avoid_switch = false;
    std::string reason;
    std::string detector;
};
class Launcher {
public:
    virtual ~Launcher() = default;
    virtual std::string start_on(int rank, int host) = 0;
    virtual std::string migrate(int rank, bool avoid_switch) = 0;
    virtual std::string promote(int rank) = 0;
    virtual void leave_out(int rank, const std::string &reason) = 0;
};
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
struct Substitution {
    std::string method;
    std::vector<Move> moves;
};
class Placement {
public:
    Result<Substitution> fail(int host);
    ~Placement();
};
class Policy {
public:
    static Result<std::unique_ptr<Policy>> from_file(const std::filesystem::path &file,
                                                     const hlib::ConnectOptions &connect);
    static Result<std::unique_ptr<Policy>> from_text(const std::string &json, const std::string &origin,
                                                     const hlib::ConnectOptions &connect);
    static std::string default_text(const std::string &method);
    Decision decide(const Fault &fault) const;
    std::string recover(const Fault &fault, const Decision &decision, Launcher &launcher) const;
    bool names_placement() const;
    Result<std::unique_ptr<Placement>> open_placement(const Layout &layout) const;
    std::string describe() const;
};
}  // namespace harness::policy
