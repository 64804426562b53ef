#pragma once
// A test hook for the power-loss tests: when BOOTBENCH_TEST_CRASH_AT names
// this point, the process kills itself with SIGKILL right here, once (a
// marker file BOOTBENCH_TEST_CRASH_MARKER records that it happened). Absent
// in normal use: without the variable this is a getenv and nothing else.
namespace bootbench::sys {

void crash_point(const char* name);

} // namespace bootbench::sys
