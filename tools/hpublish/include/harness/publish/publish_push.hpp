// harness/publish/publish_push.hpp — telling a running VM what was published.
//
// After publish() has written the repository, push_to_vm() sends the plugins'
// repository URL, versions and calling parameters to one daemon (PUBLISH),
// which records them and forwards them to every live member, so daemons
// without a --repo for it still know where to fetch the plugins. Trust is the
// daemons' own: they accept only indexes signed by a key they --trust.
#pragma once

#include <harness/fetch/repo_index.hpp>
#include <harness/hlib/hlib.hpp>

#include <string>
#include <vector>

namespace harness::publish {

// The calling parameters of an entry as JSON (level, TTL, functions).
std::string entry_info_json(const repo::IndexEntry &entry);

Result<void> push_to_vm(const hlib::ConnectOptions &vm, const std::string &repo_url,
                        const std::vector<repo::IndexEntry> &entries);

}  // namespace harness::publish
