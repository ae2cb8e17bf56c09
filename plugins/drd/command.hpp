// command.hpp — the DRD's replicated commands and their log-entry encoding.
//
// A write that goes through consensus becomes one raft log entry holding one
// Command. c-raft 0.15 does not check it, but every entry payload must be a
// multiple of 8 bytes long or the on-disk log is silently corrupted
// (README.md, "8-byte padding"), so an entry is: u64 length (LE) | pack-buffer body | zero
// padding up to the next multiple of 8. decode_entry() trusts only the length
// prefix and rejects anything inconsistent instead of crashing.
#pragma once

#include <harness/common/pack.hpp>
#include <harness/common/result.hpp>

#include <cstdint>
#include <string>

namespace harness::drd {

enum class Op : std::int32_t { put = 1, cas = 2, del = 3 };

struct Command {
    Op op = Op::put;
    std::string key;
    Bytes value;
    std::int64_t expected_version = 0;  // cas only: 0 = the key must not exist
    // Who asked, for exactly-once writes: a command whose (client, request)
    // was applied before is not applied again; the first outcome is
    // answered instead (the Raft dissertation's client sessions). An empty
    // client: no such check.
    std::string client;
    std::int64_t request = 0;
};

// What applying a command did, reported back to the writer.
struct ApplyOutcome {
    bool ok = true;                    // cas: the expectation held
    bool existed = false;              // del: there was a record
    std::int64_t version = 0;          // put/cas: the record's version after the command
    std::int64_t current_version = 0;  // cas: the version found (0 = none)
    bool skipped = false;              // already applied before a restart
    bool repeated = false;             // the same (client, request) was applied before: its outcome
};

inline constexpr std::size_t kEntryAlignment = 8;

// Rounds n up to a multiple of 8.
constexpr std::size_t padded_size(std::size_t n) {
    return (n + kEntryAlignment - 1) / kEntryAlignment * kEntryAlignment;
}

// Frames an opaque body: u64 length, body, zero padding to a multiple of 8.
Bytes frame_padded(std::span<const std::uint8_t> body);
// The body of a framed buffer; error when the length prefix does not fit.
Result<std::span<const std::uint8_t>> unframe_padded(std::span<const std::uint8_t> framed);

Bytes encode_command(const Command &c);
Result<Command> decode_command(std::span<const std::uint8_t> entry);

}  // namespace harness::drd
