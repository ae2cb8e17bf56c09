// The protocol components' ops tables (package "protocol"), one rule file
// and one descriptor file each. See ../README.md for their keys.
#pragma once

#include <harness/policy.h>

namespace harness::policy::protocols {

const harness_policy_protocol_ops *ignore_ops();
const harness_policy_protocol_ops *restart_ops();
const harness_policy_protocol_ops *migrate_ops();
const harness_policy_protocol_ops *promote_ops();

}  // namespace harness::policy::protocols
