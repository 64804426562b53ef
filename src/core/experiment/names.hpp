#pragma once
// The names an experiment file may use: its own and its targets', image
// references, the units [conditions] stop_units may name.
#include <string>

namespace bootbench::core {

// A container image reference as podman takes it: [A-Za-z0-9._/:@-], at most
// 255 characters, starting with a letter or digit (never an option).
bool is_valid_image_reference(const std::string& ref);

// Whether `name` is a unit [conditions] stop_units may name (core/host/quiet
// stops it): NAME.timer, .service, .path or .socket.
bool is_stoppable_unit_name(const std::string& name);

// experiment.name and target.name: [a-z0-9][a-z0-9._-]{0,63}, and never "..".
bool is_valid_name(const std::string& name);

} // namespace bootbench::core
