// Parsing substitution methods: "1D", "qd", "hybrid(2D+1D+0D)", "hybrid(all)", "hybrid(-2D)".
#include <harness/placement/method.hpp>

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace harness::placement {

namespace {

// "2D" → 2, "qD" → dims; throws on anything else.
int parse_degree(const std::string &token, int dims, std::string_view whole) {
    auto bad = [&](const std::string &why) {
        return std::invalid_argument("bad method '" + std::string(whole) + "': " + why);
    };
    if (token.size() < 2 || token.back() != 'D') throw bad("expected a degree such as 0D, 1D, 2D or qD");
    const std::string number = token.substr(0, token.size() - 1);
    int degree = -1;
    if (number == "Q") {
        degree = dims;
    } else {
        if (!std::all_of(number.begin(), number.end(),
                         [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }) ||
            number.size() > 2)
            throw bad("expected a degree such as 0D, 1D, 2D or qD");
        degree = std::stoi(number);
    }
    if (degree > dims) throw bad(token + " sliding needs a grid of at least " + number + " dimensions");
    return degree;
}

}  // namespace

Method Method::parse(std::string_view text, int dims) {
    std::string s(text);
    for (char &c : s) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    Method m;
    const std::string prefix = "HYBRID(";
    if (s.rfind(prefix, 0) != 0) {
        m.degrees.push_back(parse_degree(s, dims, text));
        return m;
    }
    if (s.back() != ')') throw std::invalid_argument("bad method '" + std::string(text) + "': missing ')'");
    const std::string inner = s.substr(prefix.size(), s.size() - prefix.size() - 1);
    if (inner == "ALL" || (!inner.empty() && inner[0] == '-')) {
        const int excluded = inner == "ALL" ? -1 : parse_degree(inner.substr(1), dims, text);
        for (int d = dims; d >= 0; --d)
            if (d != excluded) m.degrees.push_back(d);
        return m;
    }
    std::size_t pos = 0;
    while (true) {
        std::size_t plus = inner.find('+', pos);
        const int degree = parse_degree(inner.substr(pos, plus == std::string::npos ? plus : plus - pos), dims, text);
        if (std::find(m.degrees.begin(), m.degrees.end(), degree) != m.degrees.end())
            throw std::invalid_argument("bad method '" + std::string(text) + "': a degree appears twice");
        m.degrees.push_back(degree);
        if (plus == std::string::npos) break;
        pos = plus + 1;
    }
    return m;
}

std::string Method::describe() const {
    std::string out;
    for (std::size_t i = 0; i < degrees.size(); ++i) out += (i ? "+" : "") + std::to_string(degrees[i]) + "D";
    return hybrid() ? "hybrid(" + out + ")" : out;
}

}  // namespace harness::placement
