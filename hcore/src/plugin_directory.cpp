#include "plugin_directory.hpp"

#include <algorithm>

namespace harness::hcore {

void PluginDirectory::record(PublishedPlugin entry) {
    std::lock_guard lock(mutex_);
    auto &list = entries_[entry.name];
    // One entry per repository: a republication replaces it and moves it first.
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](const PublishedPlugin &p) { return p.repo_url == entry.repo_url; }),
               list.end());
    list.insert(list.begin(), std::move(entry));
}

void PluginDirectory::set_stored(Stored stored) {
    std::lock_guard lock(mutex_);
    stored_ = std::move(stored);
}

std::map<ComponentName, std::vector<PublishedPlugin>> PluginDirectory::merged() const {
    Stored stored;
    std::map<ComponentName, std::vector<PublishedPlugin>> out;
    {
        std::lock_guard lock(mutex_);
        out = entries_;
        stored = stored_;
    }
    if (!stored) return out;
    for (auto &e : stored()) {
        auto &list = out[e.name];
        bool known =
            std::any_of(list.begin(), list.end(), [&](const PublishedPlugin &p) { return p.repo_url == e.repo_url; });
        if (!known) list.push_back(std::move(e));
    }
    return out;
}

std::vector<std::string> PluginDirectory::repositories_for(const ComponentName &name) const {
    auto all = merged();
    std::vector<std::string> urls;
    if (auto it = all.find(name); it != all.end())
        for (const auto &p : it->second) urls.push_back(p.repo_url);
    return urls;
}

std::vector<PublishedPlugin> PluginDirectory::all() const {
    std::vector<PublishedPlugin> out;
    for (auto &[name, list] : merged()) out.insert(out.end(), list.begin(), list.end());
    return out;
}

}  // namespace harness::hcore
