#pragma once
// systemd's configuration folders as a tree holds them, read the way
// systemd reads them (src/basic/conf-files.c, src/sysctl/sysctl.c,
// src/shared/install.c): which files count, in which order, and what the
// sysctl.d files and the preset files then say. Pure: sys/ lists the
// folders and reads the files.
#include "core/deployment/tree_facts.hpp"

#include <string>
#include <vector>

namespace bootbench::core {

// A configuration file found in a tree: its folder's rank (0: the folder
// of highest precedence, /etc), its name, and its path for messages.
struct ConfFile {
    int rank = 0;
    std::string name;
    std::string path;
};

// conf_files_list: every name once, from the folder of highest precedence
// that has it (an /etc file hides /usr/lib's of the same name; a link to
// /dev/null masks it), sorted by name across folders.
std::vector<ConfFile> conf_files_in_order(const std::vector<ConfFile>& found);

// A file's text, in the order conf_files_in_order gave (a masked file: "").
struct ConfText {
    std::string path;
    std::string text;
};

// A sysctl key as systemd-sysctl compares them (sysctl_normalize: "a.b/c"
// and "a/b.c" are one key), written with dots.
std::string sysctl_key(const std::string& key);

// The value each key ends with: later files and later lines override
// earlier ones, "-key" without a value unsets it. A line that is not an
// assignment is ignored, as systemd-sysctl does, with a warning
// "FILE:LINE: ..." added to `warnings`.
FactMap effective_sysctl(const std::vector<ConfText>& files, std::vector<std::string>& warnings);

// "foo@.service" -> true: a template needs an instance to be enabled.
bool is_template_unit(const std::string& unit);

// The units the preset files enable among `units` (the unit files the tree
// has): the first rule whose pattern matches decides, as `systemctl
// preset` does; a template is enabled only with the instances its rule
// lists; patterns are fnmatch globs (core/deployment/resolve's glob_match).
// Unknown lines are ignored with a warning "FILE:LINE: ...".
std::vector<std::string> preset_enabled(const std::vector<ConfText>& presets,
                                        const std::vector<std::string>& units,
                                        std::vector<std::string>& warnings);

} // namespace bootbench::core
