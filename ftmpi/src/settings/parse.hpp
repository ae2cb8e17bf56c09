// Parsing one setting's value by the rules of its type (table.hpp), and the
// words that say what a setting allows. Pure functions: the unit tests, the
// library (values.hpp) and ftmpi_info all go through them.
#pragma once

#include "settings/table.hpp"

#include <harness/common/result.hpp>

#include <string>
#include <string_view>

namespace ftmpi::settings {

struct Parsed {
    long long number = 0;  // boolean: 0/1; integer, size, duration: the value; choice: the index in choices
    std::string text;      // the value as given (choice: the name)
};

// The value `text` of `s`; an error's message names the variable, the value
// and what is allowed, e.g. "FTMPI_EAGER_LIMIT=abc: expected a size ...".
harness::Result<Parsed> parse(const Setting &s, std::string_view text);

// What `s` accepts, in words: "an integer from 0 to 2147483647",
// "one of ulfm, abort, ...".
std::string allowed(const Setting &s);

}  // namespace ftmpi::settings
