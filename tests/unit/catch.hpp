#pragma once
// Debian 12 ships Catch2 2.13 (one header), Fedora ships Catch2 3: one include for both.
#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
#else
#include <catch2/catch.hpp>
#endif
