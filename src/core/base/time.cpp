#include "core/base/time.hpp"

#include <cctype>
#include <cstdio>

namespace bootbench::core {

namespace {

// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
long long days_from_civil(int y, int mo, int d) {
    y -= mo <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153LL * (mo + (mo > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719468;
}

struct Civil {
    long long year;
    int month, day;
};

// The civil date of a day count since 1970-01-01 (the inverse of the above).
Civil civil_from_days(long long z) {
    z += 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    int month = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    return {yoe + era * 400 + (month <= 2), month, static_cast<int>(doy - (153 * mp + 2) / 5 + 1)};
}

bool in_range(int mo, int d, int h, int mi, int s) {
    return mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && mi <= 59 && s <= 60 && h >= 0 &&
           mi >= 0 && s >= 0;
}

// The offset after the seconds (and any fraction): "Z", "+HH:MM", "-HH:MM".
std::optional<int> offset_at(const std::string& s, size_t i) {
    while (i < s.size() && (s[i] == '.' || std::isdigit(static_cast<unsigned char>(s[i]))))
        ++i;
    int oh = 0, om = 0;
    if (i < s.size() && s[i] == 'Z')
        return 0;
    if (i < s.size() && (s[i] == '+' || s[i] == '-') &&
        std::sscanf(s.c_str() + i + 1, "%2d:%2d", &oh, &om) == 2 && oh <= 23 && om <= 59)
        return (s[i] == '-' ? -1 : 1) * (oh * 3600 + om * 60);
    return std::nullopt;
}

} // namespace

long long Instant::local_second_of_day() const {
    long long local = epoch_s + utc_offset_s;
    return ((local % 86400) + 86400) % 86400;
}

std::optional<Instant> parse_instant(const std::string& s) {
    int y, mo, d, h, mi, sec;
    if (s.size() < 20 || s[10] != 'T' ||
        std::sscanf(s.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &y, &mo, &d, &h, &mi, &sec) != 6 ||
        !in_range(mo, d, h, mi, sec))
        return std::nullopt;
    auto offset = offset_at(s, 19);
    if (!offset)
        return std::nullopt;
    long long local = days_from_civil(y, mo, d) * 86400 + h * 3600LL + mi * 60LL + sec;
    return Instant{local - *offset, *offset};
}

std::string format_instant(const Instant& t) {
    long long local = t.epoch_s + t.utc_offset_s;
    long long days = local >= 0 ? local / 86400 : -((-local + 86399) / 86400);
    Civil c = civil_from_days(days);
    long long sec = local - days * 86400;
    int off = t.utc_offset_s < 0 ? -t.utc_offset_s : t.utc_offset_s;
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04lld-%02d-%02dT%02lld:%02lld:%02lld%c%02d:%02d", c.year, c.month, c.day,
                  sec / 3600, sec / 60 % 60, sec % 60, t.utc_offset_s < 0 ? '-' : '+', off / 3600, off / 60 % 60);
    return buf;
}

int compare_instants(const std::string& a, const std::string& b) {
    auto x = parse_instant(a), y = parse_instant(b);
    if (x && y)
        return x->epoch_s < y->epoch_s ? -1 : x->epoch_s > y->epoch_s ? 1 : 0;
    if (x || y) // a moment before a text that is none: a strict weak order for std::sort
        return x ? -1 : 1;
    return a.compare(b) < 0 ? -1 : a == b ? 0 : 1;
}

} // namespace bootbench::core
