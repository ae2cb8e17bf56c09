// hlib/src/wire.hpp — request bodies and reply decoders (internal).
//
// One place that knows the body layouts of protocol.hpp, so that Daemon (one
// daemon) and VirtualMachine (fan-out to many) encode and decode alike.
#pragma once

#include <harness/hlib/hlib.hpp>

namespace harness::hlib::detail {

Bytes encode_component(const ComponentName &name);  // LOAD, LOCATE, RESOLVE
Bytes encode_call(const ComponentName &name, std::string_view function, harness_mode mode,
                  harness_convention convention, std::span<const std::uint8_t> args);

Result<std::string> decode_single_str(std::span<const std::uint8_t> body, const char *what);
Result<ResolvedComponent> decode_resolve(std::span<const std::uint8_t> body);
Result<Bytes> decode_call_reply(std::span<const std::uint8_t> body);
Result<std::vector<Member>> decode_members(std::span<const std::uint8_t> body);
Result<std::vector<ComponentInfo>> decode_loaded(std::span<const std::uint8_t> body);
Result<std::vector<std::string>> decode_locate(std::span<const std::uint8_t> body);

}  // namespace harness::hlib::detail
