// output_log.hpp — one process's captured stdout and stderr, as whole lines.
//
// Bytes from a pipe are cut at '\n'; a partial line waits for the rest (per
// stream, so stdout and stderr never mix inside a line) and is delivered at
// EOF. Lines are numbered from 1 in arrival order; a reader asks for the lines
// after the last number it saw. Memory is bounded: past max_output_bytes the
// oldest lines go, and a reader that had not seen them gets one note line on
// stream 2 saying how many it missed. Not thread-safe: the process table's
// lock guards it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

namespace harness::vm::spawn {

struct OutputLine {
    std::int32_t stream = 1;  // 1 stdout, 2 stderr
    std::string text;         // without the newline
};

struct OutputBatch {
    std::int64_t next_line = 0;  // pass as after_line next time
    std::vector<OutputLine> lines;
};

class OutputLog {
public:
    OutputLog(std::size_t max_bytes, std::size_t max_line) : max_bytes_(max_bytes), max_line_(max_line) {}

    // Bytes read from stream (1 or 2).
    void feed(int stream, std::string_view bytes);
    // The stream ended: a final partial line becomes a line.
    void close_stream(int stream);
    // A line from spawn_notify itself (on stream 2), e.g. why reading stopped.
    void note(std::string text) { push(2, std::move(text)); }

    // Lines numbered after after_line, at most max_reply_bytes of text (at
    // least one line when there is one).
    OutputBatch read(std::int64_t after_line, std::size_t max_reply_bytes) const;
    std::int64_t last_line() const { return first_ + static_cast<std::int64_t>(lines_.size()) - 1; }

private:
    void push(int stream, std::string text);

    std::size_t max_bytes_;
    std::size_t max_line_;
    std::deque<OutputLine> lines_;
    std::int64_t first_ = 1;  // number of lines_.front()
    std::size_t bytes_ = 0;   // text bytes held in lines_
    std::string partial_[2];  // per stream, the line not yet ended
};

}  // namespace harness::vm::spawn
