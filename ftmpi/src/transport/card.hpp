// A process's contact card: one address per comm driver, published through
// the wire-up (DRD record or file) and read by every other rank.
//
// Text form: "tcp=HOST:PORT INC ROUND;shm=HOSTKEY" — entries separated by
// ';', each NAME=ADDRESS (an address holds neither ';' nor '='). A record
// without '=' is an older TCP-only record ("HOST:PORT [INC ROUND]").
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace ftmpi::transport {

class Card {
public:
    static Card parse(const std::string &text);
    std::string text() const;

    void add(const std::string &driver, const std::string &address);
    // The address for `driver`, or "" when the card has none.
    const std::string &address(const std::string &driver) const;
    bool empty() const { return entries_.empty(); }

private:
    std::vector<std::pair<std::string, std::string>> entries_;
};

}  // namespace ftmpi::transport
