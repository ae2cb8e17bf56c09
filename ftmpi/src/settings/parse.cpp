// Parsing setting values (parse.hpp).
#include "settings/parse.hpp"

#include <climits>
#include <cstring>
#include <optional>

namespace ftmpi::settings {

namespace {

constexpr const char *yes_words[] = {"1", "yes", "on", "true"};
constexpr const char *no_words[] = {"0", "no", "off", "false"};

// Decimal digits, or 0x and hexadecimal ones, with an optional leading '-';
// nullopt when malformed or beyond long long. `rest` gets what follows.
std::optional<long long> parse_number(std::string_view text, std::string_view *rest) {
    bool negative = false;
    if (!text.empty() && text.front() == '-') {
        negative = true;
        text.remove_prefix(1);
    }
    unsigned base = 10;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        base = 16;
        text.remove_prefix(2);
    }
    unsigned long long value = 0;
    std::size_t i = 0;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        unsigned digit;
        if (c >= '0' && c <= '9')
            digit = static_cast<unsigned>(c - '0');
        else if (base == 16 && c >= 'a' && c <= 'f')
            digit = static_cast<unsigned>(c - 'a' + 10);
        else if (base == 16 && c >= 'A' && c <= 'F')
            digit = static_cast<unsigned>(c - 'A' + 10);
        else
            break;
        if (value > (static_cast<unsigned long long>(LLONG_MAX) - digit) / base) return std::nullopt;
        value = value * base + digit;
    }
    if (i == 0) return std::nullopt;
    *rest = text.substr(i);
    const auto n = static_cast<long long>(value);
    return negative ? -n : n;
}

// 1073741824 -> "1G": a limit reads better with the suffix it may be written with.
std::string size_words(long long n) {
    static const char suffixes[] = {'G', 'M', 'K'};
    for (int i = 0; i < 3; ++i) {
        const long long scale = 1LL << (10 * (3 - i));
        if (n >= scale && n % scale == 0) return std::to_string(n / scale) + suffixes[i];
    }
    return std::to_string(n);
}

std::string range_words(const Setting &s, const std::string &low, const std::string &high) {
    if (s.max == LLONG_MAX) return low + " or more";
    return "from " + low + " to " + high;
}

harness::Error refused(const Setting &s, std::string_view text, const std::string &why) {
    return harness::make_error(HARNESS_ERR_INVALID_ARGUMENT,
                               std::string(s.env) + "=" + std::string(text) + ": " + why + " (expected " + allowed(s) +
                                   ")");
}

}  // namespace

std::string allowed(const Setting &s) {
    switch (s.type) {
    case Type::boolean: return "1, 0, yes, no, on, off, true or false";
    case Type::integer: return "an integer " + range_words(s, std::to_string(s.min), std::to_string(s.max));
    case Type::size:
        return "a size in bytes " + range_words(s, size_words(s.min), size_words(s.max)) +
            ", with an optional K, M or G suffix";
    case Type::duration:
        return "a whole number of " + std::string(s.unit) + " " +
            range_words(s, std::to_string(s.min), std::to_string(s.max));
    case Type::string: return "any text";
    case Type::choice: {
        std::string words = "one of ";
        for (const char *c = s.choices; *c; ++c) words += *c == ',' ? std::string(", ") : std::string(1, *c);
        return words;
    }
    }
    return "?";
}

harness::Result<Parsed> parse(const Setting &s, std::string_view text) {
    Parsed out;
    out.text = std::string(text);
    switch (s.type) {
    case Type::boolean:
        for (const char *w : yes_words)
            if (text == w) {
                out.number = 1;
                return out;
            }
        for (const char *w : no_words)
            if (text == w) return out;
        return refused(s, text, "not a boolean");
    case Type::integer:
    case Type::size:
    case Type::duration: {
        std::string_view rest;
        const auto n = parse_number(text, &rest);
        if (!n) return refused(s, text, "not a number");
        long long value = *n;
        if (s.type == Type::size && rest.size() == 1) {
            const char c = rest.front();
            const int shift = c == 'K' || c == 'k' ? 10 : c == 'M' || c == 'm' ? 20 : c == 'G' || c == 'g' ? 30 : 0;
            if (shift == 0) return refused(s, text, "unknown suffix '" + std::string(rest) + "'");
            if (value > (LLONG_MAX >> shift) || value < -(LLONG_MAX >> shift)) return refused(s, text, "too large");
            value *= 1LL << shift;
            rest = {};
        } else if (s.type == Type::duration && rest == s.unit) {
            rest = {};  // "500ms" says the unit the setting has anyway
        }
        if (!rest.empty()) return refused(s, text, "not a number");
        if (value < s.min || value > s.max) return refused(s, text, "out of range");
        out.number = value;
        return out;
    }
    case Type::string: return out;
    case Type::choice: {
        long long index = 0;
        for (const char *c = s.choices; *c; ++index) {
            const char *end = std::strchr(c, ',');
            const std::size_t length = end ? static_cast<std::size_t>(end - c) : std::strlen(c);
            if (text == std::string_view(c, length)) {
                out.number = index;
                return out;
            }
            c += length + (end ? 1 : 0);
        }
        return refused(s, text, "not a known name");
    }
    }
    return refused(s, text, "unknown type");
}

}  // namespace ftmpi::settings
