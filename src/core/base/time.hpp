#pragma once
// The one reader and the one writer of the times results and states write
// ("2026-10-25T02:30:00+01:00", RealClock::now_iso8601): moments are ordered
// and subtracted as seconds since the epoch, never as text (on a DST
// fall-back night the local clock runs 02:00-03:00 twice). Pure.
#include <optional>
#include <string>

namespace bootbench::core {

struct Instant {
    long long epoch_s = 0; // seconds since 1970-01-01T00:00:00Z
    int utc_offset_s = 0;  // the writer's offset from UTC (+01:00 = 3600)

    // Seconds since midnight on the writer's clock (the offset it wrote).
    long long local_second_of_day() const;
};

// "YYYY-MM-DDTHH:MM:SS[.fff](Z|+HH:MM|-HH:MM)"; nullopt for anything else.
std::optional<Instant> parse_instant(const std::string& iso);

// "YYYY-MM-DDTHH:MM:SS+HH:MM" on the instant's own clock (its offset; UTC
// is "+00:00"): what parse_instant reads back as the same instant.
std::string format_instant(const Instant& t);

// The order of two written times, -1, 0 or 1 like strcmp: by the epoch when
// both parse; else as text (published results may carry a bare date), after
// every time that parses.
int compare_instants(const std::string& a, const std::string& b);

} // namespace bootbench::core
