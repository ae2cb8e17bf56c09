#include "transport/card.hpp"

namespace ftmpi::transport {

Card Card::parse(const std::string &text) {
    Card c;
    if (text.empty()) return c;
    if (text.find('=') == std::string::npos) {
        c.add("tcp", text);
        return c;
    }
    size_t start = 0;
    while (start <= text.size()) {
        size_t end = text.find(';', start);
        if (end == std::string::npos) end = text.size();
        std::string entry = text.substr(start, end - start);
        if (size_t eq = entry.find('='); eq != std::string::npos && eq > 0)
            c.add(entry.substr(0, eq), entry.substr(eq + 1));
        start = end + 1;
    }
    return c;
}

std::string Card::text() const {
    std::string out;
    for (const auto &[name, address] : entries_) {
        if (!out.empty()) out += ';';
        out += name + "=" + address;
    }
    return out;
}

void Card::add(const std::string &driver, const std::string &address) {
    for (auto &[name, a] : entries_)
        if (name == driver) {
            a = address;
            return;
        }
    entries_.emplace_back(driver, address);
}

const std::string &Card::address(const std::string &driver) const {
    static const std::string none;
    for (const auto &[name, a] : entries_)
        if (name == driver) return a;
    return none;
}

}  // namespace ftmpi::transport
