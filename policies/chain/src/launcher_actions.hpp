// The launcher's actions as the C table a protocol component calls
// (harness_policy_actions): each slot calls the Launcher and turns its
// answer ("" or a reason) into OK or REFUSED with the reason; an exception
// thrown by the launcher becomes a refusal, never crosses the C boundary.
#pragma once

#include <harness/policy.h>
#include <harness/policy/chain.hpp>

namespace harness::policy::detail {

harness_policy_actions actions_for(Launcher &launcher);

}  // namespace harness::policy::detail
