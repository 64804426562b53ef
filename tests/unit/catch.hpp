#pragma once
// Debian 12 ships Catch2 2.13 (one header), Fedora and Debian 13 ship Catch2 3:
// one include for both. Approx: Catch2 2 declares it globally, Catch2 3 only
// as Catch::Approx, so an unqualified Approx compiled on Debian 12 alone.
#if __has_include(<catch2/catch_all.hpp>)
#include <catch2/catch_all.hpp>
using Catch::Approx;
#else
#include <catch2/catch.hpp>
#endif
