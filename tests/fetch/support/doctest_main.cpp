// doctest's main, used only when tests/CMakeLists.txt's shared one is absent
// (the fetch tests built on their own).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
