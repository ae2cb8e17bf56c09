// See table.hpp.
#include "table.hpp"

#include <cctype>
#include <limits>
#include <optional>

namespace ftmpi::coll {
namespace {

constexpr size_t no_limit = std::numeric_limits<size_t>::max();

std::vector<std::string_view> split_words(std::string_view line) {
    std::vector<std::string_view> words;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        const size_t start = i;
        while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
        if (i > start) words.push_back(line.substr(start, i - start));
    }
    return words;
}

// A decimal number with an optional K, M or G suffix (powers of 1024).
std::optional<size_t> parse_number(std::string_view s) {
    if (s.empty()) return std::nullopt;
    size_t scale = 1;
    switch (s.back()) {
    case 'K':
    case 'k': scale = size_t{1} << 10; break;
    case 'M':
    case 'm': scale = size_t{1} << 20; break;
    case 'G':
    case 'g': scale = size_t{1} << 30; break;
    default: break;
    }
    if (scale != 1) s.remove_suffix(1);
    if (s.empty() || s.size() > 18) return std::nullopt;
    size_t value = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return std::nullopt;
        value = value * 10 + static_cast<size_t>(c - '0');
    }
    if (value > no_limit / scale) return std::nullopt;
    return value * scale;
}

struct Range {
    size_t low, high;
};

// `*`, `N`, `N-`, `N-M`.
std::optional<Range> parse_range(std::string_view s) {
    if (s == "*") return Range{0, no_limit};
    const size_t dash = s.find('-');
    if (dash == std::string_view::npos) {
        auto n = parse_number(s);
        if (!n) return std::nullopt;
        return Range{*n, *n};
    }
    auto low = parse_number(s.substr(0, dash));
    if (!low) return std::nullopt;
    if (dash + 1 == s.size()) return Range{*low, no_limit};
    auto high = parse_number(s.substr(dash + 1));
    if (!high || *high < *low) return std::nullopt;
    return Range{*low, *high};
}

}  // namespace

std::optional<size_t> parse_size(std::string_view s) {
    return parse_number(s);
}

bool Table::parse(std::string_view text, const std::string &source, std::string *error) {
    std::array<std::vector<Rule>, collective_count> parsed;
    int line_number = 0;
    while (!text.empty()) {
        ++line_number;
        const size_t end = text.find('\n');
        std::string_view line = text.substr(0, end);
        text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
        if (const size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
        const auto words = split_words(line);
        if (words.empty()) continue;

        auto fail = [&](const std::string &what) {
            *error = source + ":" + std::to_string(line_number) + ": " + what;
            return false;
        };
        if (words.size() < 4)
            return fail("expected `collective ranks bytes algorithm [seg=BYTES]`, got " + std::to_string(words.size()) +
                        " field(s)");
        const auto collective = collective_from_name(words[0]);
        if (!collective)
            return fail("unknown collective '" + std::string(words[0]) + "' (known: " + collective_names() + ")");
        auto ranks = parse_range(words[1]);
        if (ranks && words[1] == "*") ranks->low = 1;
        if (!ranks || ranks->low < 1 || (ranks->high != no_limit && ranks->high > 1u << 30))
            return fail("bad rank range '" + std::string(words[1]) + "' (N, N-M, N- or *, ranks from 1)");
        const auto bytes = parse_range(words[2]);
        if (!bytes) return fail("bad byte range '" + std::string(words[2]) + "' (N, N-M, N- or *; K, M, G suffixes)");
        const auto algorithm = algorithm_from_name(*collective, words[3]);
        if (!algorithm)
            return fail("unknown algorithm '" + std::string(words[3]) + "' for " + collective_name(*collective) +
                        " (known: " + algorithm_names(*collective) + ")");
        Rule rule{*collective,
                  static_cast<int>(ranks->low),
                  ranks->high == no_limit ? std::numeric_limits<int>::max() : static_cast<int>(ranks->high),
                  bytes->low,
                  bytes->high,
                  *algorithm,
                  0};
        for (size_t i = 4; i < words.size(); ++i) {
            const std::string_view option = words[i];
            if (option.substr(0, 4) != "seg=")
                return fail("unexpected '" + std::string(option) + "' (the only option is seg=BYTES)");
            if (!segmented(*collective, *algorithm))
                return fail(std::string(collective_name(*collective)) + " " + algorithm_name(*collective, *algorithm) +
                            " has no segments (seg= is for segmented algorithms)");
            const auto seg = parse_number(option.substr(4));
            if (!seg || *seg < 1 || *seg > (1u << 30))
                return fail("bad segment size '" + std::string(option.substr(4)) + "' (1 byte to 1G)");
            if (rule.segment != 0) return fail("seg= given twice");
            rule.segment = static_cast<int>(*seg);
        }
        parsed[static_cast<size_t>(*collective)].push_back(rule);
    }
    rules_ = std::move(parsed);
    return true;
}

const Rule *Table::find(Collective c, int ranks, size_t bytes) const {
    for (const Rule &rule : rules_[static_cast<size_t>(c)])
        if (ranks >= rule.ranks_low && ranks <= rule.ranks_high && bytes >= rule.bytes_low && bytes <= rule.bytes_high)
            return &rule;
    return nullptr;
}

bool Table::empty() const {
    return size() == 0;
}

size_t Table::size() const {
    size_t n = 0;
    for (const auto &list : rules_) n += list.size();
    return n;
}

}  // namespace ftmpi::coll
