// Where the VM's published plugins can be fetched, and how they are called:
// what hpublish pushes when it publishes ("information is pushed to the
// database when plug-ins are published", as HARNESS's g_hcore does).
//
// Until the replicated database (DRD) exists this is each daemon's own table,
// filled by PUBLISH requests that the receiving daemon forwards to every live
// member; a daemon that joins later learns entries published after it joined.
// The DRD takes the table over behind this same interface. The resolver's
// HTTP step asks repositories_for() before its configured --repo URLs; trust
// is unchanged: only indexes signed by a --trust key are accepted.
#pragma once

#include <harness/common/loader.hpp>

#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace harness::hcore {

struct PublishedPlugin {
    std::string repo_url;
    ComponentName name;
    std::string version;
    std::string info_json;  // level, TTL and functions with their calling conventions
};

class PluginDirectory {
public:
    void record(PublishedPlugin entry);
    std::vector<std::string> repositories_for(const ComponentName &name) const;
    std::vector<PublishedPlugin> all() const;

private:
    mutable std::mutex mutex_;
    std::map<ComponentName, std::vector<PublishedPlugin>> entries_;  // newest publication first
};

}  // namespace harness::hcore
