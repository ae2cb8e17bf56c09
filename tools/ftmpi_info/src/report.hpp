// What ftmpi_info prints: the settings table with the current values, as
// text for a terminal or as a Markdown table for the documentation.
#pragma once

#include "settings/values.hpp"

#include <iosfwd>

namespace ftmpi::info {

// One block per setting, then the families, then the FTMPI_* variables that
// are no setting. Returns the number of invalid values.
int print_text(std::ostream &out, const settings::Values &values);

// The table as docs/ftmpi.md lists it (defaults only, no current values).
void print_markdown(std::ostream &out);

}  // namespace ftmpi::info
