// One failure sequence traced step by step.
#include "trace.hpp"

#include <harness/placement/collisions.hpp>
#include <harness/placement/placement.hpp>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <iomanip>
#include <stdexcept>

namespace slidesim {

using namespace harness::placement;

namespace {

std::string where(const HostGrid &grid, int host) {
    std::string out = std::to_string(host) + " (";
    for (int d = 0; d < grid.dims(); ++d) out += (d ? "," : "") + std::to_string(grid.coord(host, d));
    return out + ")";
}

// The 2D map as rows of rank numbers; '.' free, 'X' failed.
void picture(std::ostream &out, const Placement &p) {
    const HostGrid &g = p.grid();
    for (int y = 0; y < g.extent(1); ++y) {
        for (int x = 0; x < g.extent(0); ++x) {
            const int host = g.host({x, y});
            out << std::setw(5);
            if (p.failed(host))
                out << "X";
            else if (p.rank_on(host) < 0)
                out << ".";
            else
                out << p.rank_on(host);
        }
        out << "\n";
    }
}

}  // namespace

int parse_host(const HostGrid &grid, const std::string &text) {
    auto number = [&](const std::string &part) {
        char *end = nullptr;
        const long v = std::strtol(part.c_str(), &end, 10);
        if (part.empty() || *end != '\0' || v < 0) throw std::invalid_argument("bad host '" + text + "'");
        return v;
    };
    if (text.find(':') == std::string::npos) {
        const long host = number(text);
        if (host >= grid.size()) throw std::invalid_argument("host " + text + " is outside " + grid.describe());
        return static_cast<int>(host);
    }
    Coords c;
    std::size_t pos = 0;
    while (true) {
        const std::size_t colon = text.find(':', pos);
        c.push_back(static_cast<int>(number(text.substr(pos, colon == std::string::npos ? colon : colon - pos))));
        if (colon == std::string::npos) break;
        pos = colon + 1;
    }
    if (static_cast<int>(c.size()) != grid.dims())
        throw std::invalid_argument("host '" + text + "' needs " + std::to_string(grid.dims()) + " coordinates");
    for (int d = 0; d < grid.dims(); ++d)
        if (c[d] >= grid.extent(d)) throw std::invalid_argument("host '" + text + "' is outside " + grid.describe());
    return grid.host(c);
}

int trace(std::ostream &out, const HostGrid &grid, const SparePattern &pattern, const Method &method,
          const std::vector<int> &failures, bool periodic, bool json) {
    Placement p(grid, pattern);
    CollisionCounter counter(grid);
    nlohmann::json steps = nlohmann::json::array();
    int status = 0;
    if (!json)
        out << "grid " << grid.describe() << ", spares " << pattern.describe() << ", " << method.describe() << "\n";
    for (int host : failures) {
        if (p.failed(host)) throw std::invalid_argument("host " + where(grid, host) + " fails twice");
        const Outcome o = p.fail(host, method);
        nlohmann::json step{{"host", host}, {"coords", grid.coords(host)}};
        if (const auto *r = std::get_if<Refusal>(&o)) {
            step["refused"] = r->reason;
            if (!json) out << "host " << where(grid, host) << ": refused: " << r->reason << "\n";
            steps.push_back(step);
            status = 3;
            break;
        }
        const Substitution &s = std::get<Substitution>(o);
        const int c = counter.max_collisions(p.logical_extents(), p.rank_to_host(), periodic);
        step["degree"] = s.degree;
        step["dim"] = s.dim;
        step["step"] = s.step;
        step["span"] = s.span;
        step["max_collisions"] = c;
        nlohmann::json moves = nlohmann::json::array();
        for (const Move &m : s.moves) moves.push_back({{"rank", m.rank}, {"from", m.from}, {"to", m.to}});
        step["moves"] = moves;
        steps.push_back(step);
        if (json) continue;
        out << "host " << where(grid, host) << ": ";
        if (s.degree < 0)
            out << "held no rank";
        else if (s.degree == 0)
            out << "0D";
        else
            out << s.degree << "D along dimension " << s.dim << (s.step > 0 ? " (towards the spares)" : " (back)");
        out << ", " << s.moves.size() << " moves, C_max " << c << "\n";
        for (const Move &m : s.moves)
            out << "  rank " << m.rank << ": " << where(grid, m.from) << " -> " << where(grid, m.to) << "\n";
    }
    if (json) {
        out << nlohmann::json{{"grid", grid.extents()},
                              {"torus", grid.torus()},
                              {"spares", pattern.describe()},
                              {"method", method.describe()},
                              {"steps", steps},
                              {"rank_to_host", p.rank_to_host()}}
                   .dump(2)
            << "\n";
    } else if (grid.dims() == 2) {
        picture(out, p);
    }
    return status;
}

}  // namespace slidesim
