// What the policy tests share: the build tree's plugins root (the policy
// components are built into <build>/plugins-root/lib) and loading a policy
// from it. No daemon runs, so a component missing from lib/ is "not found".
#pragma once

#include <harness/policy/chain.hpp>

#include <doctest/doctest.h>

#include <memory>
#include <string>

namespace policytest {

inline harness::hlib::ConnectOptions plugins_root() {
    harness::hlib::ConnectOptions o;
    o.root = HARNESS_PLUGINS_ROOT;
    o.key_file = o.root / "no-daemon-here.key";  // nothing to ask: only lib/ counts
    return o;
}

inline std::unique_ptr<harness::policy::Policy> load(const std::string &json) {
    auto policy = harness::policy::Policy::from_text(json, "policy.json", plugins_root());
    REQUIRE_MESSAGE(policy.ok(), (policy.ok() ? std::string() : policy.error().describe()));
    return std::move(*policy);
}

// The error message from_text gives for `json` (fails the test when it loads).
inline std::string refusal(const std::string &json) {
    auto policy = harness::policy::Policy::from_text(json, "policy.json", plugins_root());
    REQUIRE_FALSE(policy.ok());
    std::string message = policy.error().message;
    CHECK(message.find('\n') == std::string::npos);
    return message;
}

}  // namespace policytest
