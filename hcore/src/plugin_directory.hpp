// Where the VM's published plugins can be fetched, and how they are called:
// what hpublish pushes when it publishes ("information is pushed to the
// database when plug-ins are published", as HARNESS's g_hcore does).
//
// Two sources: this daemon's own table, filled by PUBLISH requests (the
// receiving daemon forwards them to every live member), and the VM's records
// in the DRD (published_records.hpp), which also hold what was published
// before this daemon joined or restarted. The table's entries come first
// (they are what this daemon heard most recently), then the DRD's that the
// table lacks. The resolver's HTTP step asks repositories_for() before its
// configured --repo URLs; trust is unchanged: only indexes signed by a
// --trust key are accepted.
#pragma once

#include <harness/common/loader.hpp>

#include <functional>
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
    // The entries recorded VM-wide (the DRD's), newest first.
    using Stored = std::function<std::vector<PublishedPlugin>()>;

    void record(PublishedPlugin entry);
    void set_stored(Stored stored);
    std::vector<std::string> repositories_for(const ComponentName &name) const;
    std::vector<PublishedPlugin> all() const;

private:
    std::map<ComponentName, std::vector<PublishedPlugin>> merged() const;

    mutable std::mutex mutex_;
    std::map<ComponentName, std::vector<PublishedPlugin>> entries_;  // newest publication first
    Stored stored_;
};

}  // namespace harness::hcore
