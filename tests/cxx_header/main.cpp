// The suites of the C++ header (tenferro.hpp), built once per language standard.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
