// The web view's one page: page.html (HTML with its CSS and JavaScript
// inline), compiled into the plugin at build time (page.cpp.in).
#pragma once

#include <string_view>

namespace harness::web {

extern const std::string_view kPage;

}  // namespace harness::web
