// The values of the settings (table.hpp) in one process.
//
// Values are read from the FTMPI_* environment at MPI_Init (read_at_init),
// and before it at the first use: in a constructor of libftmpi before main
// (CPU binding, stdout buffering). So each setting is read when its part
// always read it, and a program that sets a variable in main before MPI_Init
// is still heard. A variable that is unset or empty has the default. An
// invalid value also gives the default to whatever asks, and is listed in
// problems(): MPI_Init refuses the job with them, and ftmpi_info marks them.
#pragma once

#include "settings/parse.hpp"
#include "settings/table.hpp"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ftmpi::settings {

class Values {
public:
    // Variable name -> value.
    using Environment = std::map<std::string, std::string, std::less<>>;

    // The FTMPI_* variables of this process's environment.
    static Environment environment();

    explicit Values(const Environment &env);

    // Set to a non-empty value (valid or not).
    bool is_set(Id id) const { return slot(id).set; }
    // Set and valid.
    bool valid(Id id) const { return slot(id).valid; }
    // The value as the environment gives it ("" when unset).
    const std::string &given(Id id) const { return slot(id).given; }

    // boolean: 0/1; integer, size, duration: the value; choice: its index.
    long long number(Id id) const { return slot(id).value.number; }
    int integer(Id id) const;  // number() of an entry whose range fits an int
    bool flag(Id id) const { return number(id) != 0; }
    // A boolean without a default: nullopt when unset.
    std::optional<bool> optional_flag(Id id) const;
    // string: the value; choice: the name.
    const std::string &text(Id id) const { return slot(id).value.text; }

    // One message per invalid value, naming the variable, the value and
    // what is allowed.
    const std::vector<std::string> &problems() const { return problems_; }
    // problems() on one line, or "" when there are none.
    std::string problems_text() const;

    // The variables starting with family `prefix` that are not entries of
    // the table, in name order (e.g. FTMPI_COLL_ALLREDUCE=ring).
    std::vector<std::pair<std::string, std::string>> family(std::string_view prefix) const;

private:
    struct Slot {
        bool set = false;
        bool valid = true;
        std::string given;
        Parsed value;
    };
    const Slot &slot(Id id) const { return slots_[static_cast<std::size_t>(id)]; }

    std::array<Slot, static_cast<std::size_t>(Id::count)> slots_;
    std::vector<std::string> problems_;
    Environment env_;
};

// This process's values: those read at MPI_Init, or before it those read at
// the first call. A reference stays valid for the life of the process.
const Values &current();
// Reads the environment again, once, for MPI_Init; current() gives these
// values from then on.
const Values &read_at_init();
// Reads the environment again, once more: a hot standby's MPI_Init once the
// job promoted it (runtime/standby.hpp), after it set the replacement's
// FTMPI_RANK, FTMPI_RESTARTED, FTMPI_INCARNATION and FTMPI_ROUND. current()
// gives these values from then on; the earlier ones stay valid.
const Values &read_after_promotion();

}  // namespace ftmpi::settings
