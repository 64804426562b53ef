#pragma once
// A tree's installed packages from its package database, as text in and
// name -> version out: dpkg's status file, and what `rpm -qa` prints with
// kRpmQueryFormat (sys/ostree/tree_reader runs rpm: no librpm here). Pure.
#include "core/deployment/tree_facts.hpp"

#include <string>

namespace bootbench::core {

// NAME<TAB>[EPOCH:]VERSION-RELEASE<TAB>ARCH, one package a line.
inline constexpr const char* kRpmQueryFormat =
    "%{NAME}\\t%|EPOCH?{%{EPOCH}:}:{}|%{VERSION}-%{RELEASE}\\t%{ARCH}\\n";

// The packages dpkg's status file `text` says are on disk (every state but
// not-installed and config-files), name -> Version; a "Multi-Arch: same"
// package is "name:arch", as dpkg-query's ${binary:Package} has it. Throws
// bootbench::Error "FILE:LINE: ..." on a damaged file.
FactMap parse_dpkg_status(const std::string& text, const std::string& file);

// `rpm -qa --qf kRpmQueryFormat`'s output, name -> [epoch:]version-release
// (each ".arch" for a name installed for several architectures). Throws
// bootbench::Error "WHERE:LINE: ..." on a line of another shape.
FactMap parse_rpm_query(const std::string& out, const std::string& where);

} // namespace bootbench::core
