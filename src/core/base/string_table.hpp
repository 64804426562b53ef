#pragma once
// One table of names per enum, read both ways (systemd's
// DEFINE_STRING_TABLE_LOOKUP): the name a file or a message uses for a
// value, and the value a name stands for. A table lists every value once:
//   inline constexpr Named<Order> kOrderNames[] = {{"blocked", Order::blocked}, ...};
//   const char* to_string(Order o) { return name_of(kOrderNames, o); }
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>

namespace bootbench::core {

template <typename E> using Named = std::pair<const char*, E>;

// The value's name; "?" for a value the table lacks.
template <typename E, std::size_t N> constexpr const char* name_of(const Named<E> (&table)[N], E value) {
    for (const auto& [name, v] : table)
        if (v == value)
            return name;
    return "?";
}

// The value a name stands for; nullopt for a name the table lacks.
template <typename E, std::size_t N>
constexpr std::optional<E> value_of(const Named<E> (&table)[N], std::string_view name) {
    for (const auto& [n, v] : table)
        if (name == n)
            return v;
    return std::nullopt;
}

} // namespace bootbench::core
