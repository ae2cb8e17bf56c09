// A real hcored for the fetch tests that go through a daemon: its HARNESS
// root is private (0700) with the VM key at <root>/vm.key, it installs no
// example plugins, and it trusts the FetchWorld's repository through the
// publisher's exported public key (as an operator would set it up).
#pragma once

#include "fetch_fixture.hpp"

#include <daemon_fixture.hpp>
#include <harness/fetch/repo_keys.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

namespace fetchtest {

inline std::unique_ptr<harness::test::Daemon> start_trusting_daemon(FetchWorld &w, const fs::path &root,
                                                                    const std::string &vm,
                                                                    std::vector<std::string> more_args = {}) {
    namespace ht = harness::test;
    fs::create_directories(root);
    fs::permissions(root, fs::perms::owner_all);
    ht::write_vm_key(root / "vm.key");
    const fs::path public_key = w.tmp.path() / "publisher.asc";
    auto exported = harness::repo::export_public_key(w.publisher.path(), w.signer);
    REQUIRE(exported.ok());
    write_text(public_key, *exported);
    ht::DaemonOptions o;
    o.root = root;
    o.vm = vm;
    o.key_file = root / "vm.key";
    o.install_examples = false;
    o.extra_args = {"--repo", w.nginx.url(), "--trust", w.signer, "--import-key", public_key.string()};
    o.extra_args.insert(o.extra_args.end(), more_args.begin(), more_args.end());
    return ht::Daemon::start(o);
}

}  // namespace fetchtest
