#include "output_log.hpp"

namespace harness::vm::spawn {

void OutputLog::feed(int stream, std::string_view bytes) {
    std::string &partial = partial_[stream == 2 ? 1 : 0];
    while (!bytes.empty()) {
        auto nl = bytes.find('\n');
        std::string_view piece = bytes.substr(0, nl);
        // Cut an overlong line so one process cannot hold unbounded memory.
        while (partial.size() + piece.size() > max_line_) {
            std::size_t take = max_line_ - partial.size();
            partial.append(piece.substr(0, take));
            piece.remove_prefix(take);
            push(stream, std::move(partial));
            partial.clear();
        }
        partial.append(piece);
        if (nl == std::string_view::npos) break;
        push(stream, std::move(partial));
        partial.clear();
        bytes.remove_prefix(nl + 1);
    }
}

void OutputLog::close_stream(int stream) {
    std::string &partial = partial_[stream == 2 ? 1 : 0];
    if (!partial.empty()) {
        push(stream, std::move(partial));
        partial.clear();
    }
}

void OutputLog::push(int stream, std::string text) {
    bytes_ += text.size();
    lines_.push_back(OutputLine{stream, std::move(text)});
    while (bytes_ > max_bytes_ && lines_.size() > 1) {
        bytes_ -= lines_.front().text.size();
        lines_.pop_front();
        ++first_;
    }
}

OutputBatch OutputLog::read(std::int64_t after_line, std::size_t max_reply_bytes) const {
    OutputBatch batch;
    batch.next_line = after_line;
    if (after_line < 0) after_line = 0;
    if (after_line + 1 < first_) {
        batch.lines.push_back({2,
                               "[spawn_notify: " + std::to_string(first_ - 1 - after_line) +
                                   " output lines dropped: over the per-process buffer limit]"});
        after_line = first_ - 1;
        batch.next_line = after_line;
    }
    std::size_t used = 0;
    for (std::int64_t n = after_line + 1; n <= last_line(); ++n) {
        const OutputLine &line = lines_[static_cast<std::size_t>(n - first_)];
        if (!batch.lines.empty() && used + line.text.size() > max_reply_bytes) break;
        used += line.text.size();
        batch.lines.push_back(line);
        batch.next_line = n;
    }
    return batch;
}

}  // namespace harness::vm::spawn
