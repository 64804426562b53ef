#include "sys/store/state_store.hpp"

#include "core/base/error.hpp"
#include "core/base/json_bounds.hpp"
#include "core/base/text.hpp"
#include "sys/store/files.hpp"

namespace bootbench::sys {

namespace {

// `what` went wrong with `file`, and what to do about it.
std::string with_recovery(const std::string& what, const fs::path& file) {
    bool sentence_ended = !what.empty() && (what.back() == '?' || what.back() == '.');
    return what + (sentence_ended ? " " : ". ") +
           "The experiment cannot go on from a damaged state; run 'bootbench abort' to put the "
           "machine back (it falls back to " +
           (file.parent_path() / "state.initial.json").string() +
           ") and keep the results collected so far";
}

} // namespace

core::State load_state(const fs::path& file) {
    std::string text = read_text_file(file);
    nlohmann::json j;
    try {
        j = core::parse_bounded_json(text, file.string());
    } catch (const Error& e) { // nesting too deep, too large
        throw Error(with_recovery(e.what(), file));
    } catch (const std::exception& e) { // a syntax error, a number out of range
        throw Error(with_recovery(
            file.string() + ": the state file is corrupt or truncated (" +
                (text.empty() ? std::string("it is empty") : std::string(e.what())) + ")",
            file));
    }
    try {
        return core::state_from_json(j, file.string());
    } catch (const Error& e) {
        throw Error(with_recovery(e.what(), file));
    } catch (const std::exception& e) { // a value nlohmann cannot convert
        throw Error(with_recovery(file.string() + ": the state file is not a valid state (" + e.what() + ")", file));
    }
}

std::optional<core::State> load_state_if_present(const fs::path& file) {
    std::error_code ec;
    if (!fs::exists(file, ec))
        return std::nullopt;
    return load_state(file);
}

void save_state(const fs::path& file, const core::State& s) {
    make_dirs(file.parent_path());
    write_file_atomic(file, core::json_text(core::to_json(s), 2) + "\n");
}

std::optional<core::StagingPins> load_staging_pins(const fs::path& file) {
    std::error_code ec;
    if (!fs::exists(file, ec))
        return std::nullopt;
    try {
        return core::staging_pins_from_json(core::parse_bounded_json(read_text_file(file), file.string()),
                                            file.string());
    } catch (const std::exception& e) {
        throw Error(file.string() + " (what bootbench pinned while staging targets) is damaged: " + e.what() +
                    ". Check the pins with 'ostree admin status', unpin what the experiment pinned with "
                    "'ostree admin pin --unpin INDEX', then remove the file");
    }
}

void save_staging_pins(const fs::path& file, const core::StagingPins& p) {
    make_dirs(file.parent_path());
    write_file_atomic(file, core::json_text(core::to_json(p), 2) + "\n");
}

} // namespace bootbench::sys
