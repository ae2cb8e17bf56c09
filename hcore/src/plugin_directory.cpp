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

std::vector<std::string> PluginDirectory::repositories_for(const ComponentName &name) const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> urls;
    if (auto it = entries_.find(name); it != entries_.end())
        for (const auto &p : it->second) urls.push_back(p.repo_url);
    return urls;
}

std::vector<PublishedPlugin> PluginDirectory::all() const {
    std::lock_guard lock(mutex_);
    std::vector<PublishedPlugin> out;
    for (const auto &[name, list] : entries_) out.insert(out.end(), list.begin(), list.end());
    return out;
}

}  // namespace harness::hcore
