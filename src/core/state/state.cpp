#include "core/state/state.hpp"

#include "core/base/json_read.hpp"

#include <algorithm>

namespace bootbench::core {

namespace {

const Named<Phase> kPhases[] = {{"starting", Phase::starting},
                                                 {"running", Phase::running},
                                                 {"finishing", Phase::finishing},
                                                 {"finished", Phase::finished},
                                                 {"aborted", Phase::aborted}};
const Named<SlotStatus> kSlotStatus[] = {
    {"pending", SlotStatus::pending}, {"done", SlotStatus::done}, {"failed", SlotStatus::failed}};

DeploymentRef deployment_for(const State& s, const std::string& target) {
    const TargetState* t = s.find_target(target);
    return t ? t->deployment : DeploymentRef{};
}

// Moves on to the next run, or to cleanup when none is left.
State advance(State s) {
    s.current++;
    s.default_set = false;
    if (s.current < s.runs.size()) {
        s.expected = deployment_for(s, s.runs[s.current].target);
    } else {
        s.phase = Phase::finishing;
        s.expected = s.original_default;
    }
    return s;
}

// Names from the state become parts of paths (results/<experiment>/runs/<run>.json):
// the same rule as in the experiment file, so a damaged or edited state
// cannot write outside the results.
std::string checked_name(const JsonReader& r, const char* key) {
    std::string name = r.str(key);
    if (!is_valid_name(name))
        r.fail(std::string("field '") + key + "' '" + name +
               "' is not a valid name: use 1 to 64 of a-z, 0-9, '.', '_', '-', starting with a letter or "
               "digit, without '/' or '..'");
    return name;
}

// A run id is "<target>-<n>" (core/state/plan).
std::string checked_run_id(const JsonReader& r, const char* key) {
    std::string id = r.str(key);
    size_t dash = id.rfind('-');
    bool ok = dash != std::string::npos && dash + 1 < id.size() && is_valid_name(id.substr(0, dash)) &&
              id.find_first_not_of("0123456789", dash + 1) == std::string::npos;
    if (!ok)
        r.fail(std::string("field '") + key + "' '" + id +
               "' is not a valid run id: a target name, '-' and a number, such as 'a-1'");
    return id;
}

nlohmann::json refs_json(const std::vector<DeploymentRef>& refs) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& r : refs)
        out.push_back(to_json(r));
    return out;
}

} // namespace

std::string describe(const DeploymentRef& d) {
    return d.stateroot + "/" + d.checksum + "." + std::to_string(d.serial);
}

const RunSlot* State::current_run() const {
    return current < runs.size() ? &runs[current] : nullptr;
}

const TargetState* State::find_target(const std::string& name) const {
    for (const auto& t : targets)
        if (t.target == name)
            return &t;
    return nullptr;
}

size_t State::count(SlotStatus st) const {
    size_t n = 0;
    for (const auto& r : runs)
        n += r.status == st;
    return n;
}

const char* to_string(Phase p) { return name_of(kPhases, p); }

const char* to_string(SlotStatus st) { return name_of(kSlotStatus, st); }

State initial_state(const Experiment& e, const std::vector<PlannedRun>& plan,
                    std::vector<TargetState> targets, const DeploymentRef& original_default,
                    const std::string& now) {
    State s;
    s.experiment = e.name;
    s.started_at = now;
    s.max_attempts = e.max_attempts;
    s.on_boot_failure = e.on_boot_failure;
    s.quick = e.quick;
    for (const auto& p : plan)
        s.runs.push_back({p.run_id, p.target, SlotStatus::pending, 0, "", 0});
    s.targets = std::move(targets);
    s.original_default = original_default;
    s.expected = plan.empty() ? original_default : deployment_for(s, plan.front().target);
    return s;
}

BootDecision decide_on_boot(const State& s, const DeploymentRef& booted) {
    switch (s.phase) {
    case Phase::starting:
        return {BootAction::nothing,
                "bootbench start did not complete; run 'bootbench abort' to put the machine back"};
    case Phase::finished:
    case Phase::aborted:
        return {BootAction::nothing, "experiment '" + s.experiment + "' is " + to_string(s.phase)};
    case Phase::finishing:
        return {BootAction::finish, "finishing: restoring the machine"};
    case Phase::running:
        break;
    }
    const RunSlot* run = s.current_run();
    if (!run)
        return {BootAction::finish, "no runs left"};
    if (!s.default_set)
        return {BootAction::set_default_again,
                "the previous boot stopped before making " + describe(s.expected) +
                    " the default; doing it now"};
    if (!(booted == s.expected))
        return {BootAction::wrong_boot, "wrong deployment booted for run " + run->run_id +
                                            ": expected " + describe(s.expected) + ", booted " +
                                            describe(booted)};
    return {BootAction::run_suite, "run " + run->run_id + " (attempt " +
                                       std::to_string(run->attempts + 1) + " of " +
                                       std::to_string(s.max_attempts) + ")"};
}

bool attempts_exhausted(const State& s) {
    const RunSlot* run = s.current_run();
    return run && run->attempts >= s.max_attempts;
}

State begin_attempt(State s) {
    if (s.current < s.runs.size())
        s.runs[s.current].attempts++;
    return s;
}

State give_up_run(State s, const std::string& why) {
    if (s.current >= s.runs.size())
        return s;
    RunSlot& run = s.runs[s.current];
    run.status = SlotStatus::failed;
    run.failure = why;
    bool stop = s.on_boot_failure == OnBootFailure::stop;
    std::string run_id = run.run_id;
    s = advance(std::move(s));
    if (stop && s.phase == Phase::running) {
        s.phase = Phase::finishing;
        s.expected = s.original_default;
        s.stop_reason = "stopped after run " + run_id + " failed (on_boot_failure = \"stop\"): " + why;
    }
    return s;
}

State record_wrong_boot(State s, const DeploymentRef& booted) {
    if (s.current >= s.runs.size())
        return s;
    s.runs[s.current].attempts++;
    if (s.runs[s.current].attempts >= s.max_attempts) {
        // The message first: the argument order of a call is unspecified.
        std::string why = "the expected deployment " + describe(s.expected) + " did not boot in " +
                          std::to_string(s.max_attempts) + " attempts (last booted: " + describe(booted) + ")";
        return give_up_run(std::move(s), why);
    }
    s.default_set = false; // the default must be made the expected one again
    return s;
}

State complete_run(State s, SlotStatus status, const std::string& failure, double seconds) {
    if (s.current >= s.runs.size())
        return s;
    RunSlot& run = s.runs[s.current];
    run.status = status;
    run.failure = failure;
    run.seconds = seconds;
    return advance(std::move(s));
}

State add_runs(State s, const std::vector<PlannedRun>& runs) {
    for (const auto& p : runs)
        s.runs.push_back({p.run_id, p.target, SlotStatus::pending, 0, "", 0});
    const TargetState* t = s.current < s.runs.size() ? s.find_target(s.runs[s.current].target) : nullptr;
    if (!t)
        return s;
    s.phase = Phase::running;
    s.expected = t->deployment;
    s.default_set = false;
    return s;
}

State mark_default_set(State s) {
    s.default_set = true;
    return s;
}

std::optional<bool> first_boot_after_switch(const State& s, const DeploymentRef& booted) {
    if (s.last_booted.empty())
        return std::nullopt;
    return !(s.last_booted == booted);
}

State note_boot(State s, const DeploymentRef& booted) {
    s.last_booted = booted;
    return s;
}

State finish(State s) {
    s.phase = s.aborted ? Phase::aborted : Phase::finished;
    return s;
}

State drop_pending_runs(State s, const std::string& why) {
    s.runs.resize(std::min(s.current, s.runs.size()));
    s.phase = Phase::finishing;
    s.stop_reason = why;
    s.expected = s.original_default;
    s.default_set = false;
    return s;
}

State abort_experiment(State s, const std::string& why) {
    if (s.phase == Phase::finished || s.phase == Phase::aborted)
        return s;
    s.phase = Phase::finishing;
    s.aborted = true;
    s.stop_reason = why;
    s.expected = s.original_default;
    s.default_set = false;
    return s;
}

bool contains(const std::vector<DeploymentRef>& refs, const DeploymentRef& ref) {
    return std::find(refs.begin(), refs.end(), ref) != refs.end();
}

nlohmann::json to_json(const DeploymentRef& d) {
    return {{"stateroot", d.stateroot}, {"checksum", d.checksum}, {"serial", d.serial}};
}

DeploymentRef deployment_ref_from(const JsonReader& r) {
    return {r.str("stateroot"), r.str("checksum"), static_cast<int>(r.integer("serial"))};
}

nlohmann::json to_json(const State& s) {
    nlohmann::json runs = nlohmann::json::array();
    for (const auto& r : s.runs)
        runs.push_back({{"run", r.run_id}, {"target", r.target}, {"status", to_string(r.status)},
                        {"attempts", r.attempts}, {"failure", r.failure}, {"seconds", r.seconds}});
    nlohmann::json targets = nlohmann::json::array();
    for (const auto& t : s.targets)
        targets.push_back({{"target", t.target}, {"deployment", to_json(t.deployment)},
                           {"was_pinned", t.was_pinned}, {"created_for_kargs", t.created_for_kargs}});
    nlohmann::json j = {{"schema", s.schema},
            {"experiment", s.experiment},
            {"started_at", s.started_at},
            {"phase", to_string(s.phase)},
            {"max_attempts", s.max_attempts},
            {"on_boot_failure", name_of(kOnBootFailureNames, s.on_boot_failure)},
            {"runs", runs},
            {"current", s.current},
            {"expected", to_json(s.expected)},
            {"default_set", s.default_set},
            {"original_default", to_json(s.original_default)},
            {"targets", targets},
            {"stop_reason", s.stop_reason},
            {"aborted", s.aborted},
            {"stopped_because", s.stopped_because},
            {"quick", s.quick},
            {"images", s.images},
            {"last_booted", to_json(s.last_booted)},
            {"pinned_by_bootbench", refs_json(s.pinned_by_bootbench)}};
    if (!s.bisect.is_null())
        j["bisect"] = s.bisect;
    return j;
}

State state_from_json(const nlohmann::json& j, const std::string& where) {
    JsonReader r(j, where);
    State s;
    s.schema = static_cast<int>(r.integer("schema"));
    if (s.schema != kStateSchema)
        r.fail("state schema " + std::to_string(s.schema) + " is not supported (this bootbench reads " +
               std::to_string(kStateSchema) + ")");
    s.experiment = checked_name(r, "experiment");
    s.started_at = r.str("started_at");
    s.phase = r.choice("phase", kPhases);
    s.max_attempts = static_cast<int>(r.integer("max_attempts"));
    s.on_boot_failure = value_of(kOnBootFailureNames, r.str("on_boot_failure")).value_or(OnBootFailure::skip);
    for (const auto& item : r.array("runs")) {
        JsonReader x = r.child(item, "runs");
        s.runs.push_back({checked_run_id(x, "run"), checked_name(x, "target"), x.choice("status", kSlotStatus),
                          static_cast<int>(x.integer("attempts")), x.str_or("failure", ""),
                          x.has("seconds") ? x.number("seconds") : 0});
    }
    long long current = r.integer("current");
    if (current < 0 || static_cast<size_t>(current) > s.runs.size())
        r.fail("field 'current' (" + std::to_string(current) + ") is outside the " +
               std::to_string(s.runs.size()) + " runs");
    s.current = static_cast<size_t>(current);
    s.expected = deployment_ref_from(r.child(r.object("expected"), "expected"));
    s.default_set = r.boolean("default_set");
    s.original_default = deployment_ref_from(r.child(r.object("original_default"), "original_default"));
    for (const auto& item : r.array("targets")) {
        JsonReader x = r.child(item, "targets");
        s.targets.push_back({checked_name(x, "target"), deployment_ref_from(x.child(x.object("deployment"), "deployment")),
                             x.boolean("was_pinned"), x.boolean("created_for_kargs")});
    }
    s.stop_reason = r.str_or("stop_reason", "");
    s.aborted = r.has("aborted") && r.boolean("aborted");
    s.stopped_because = r.str_or("stopped_because", ""); // absent in states of before adaptive runs
    s.quick = r.has("quick") && r.boolean("quick");
    s.images = r.has("images") ? r.object("images") : nlohmann::json::object();
    if (r.has("pinned_by_bootbench")) // absent in states from before it
        for (const auto& item : r.array("pinned_by_bootbench"))
            s.pinned_by_bootbench.push_back(deployment_ref_from(r.child(item, "pinned_by_bootbench")));
    if (r.has("last_booted"))
        s.last_booted = deployment_ref_from(r.child(r.object("last_booted"), "last_booted"));
    if (r.has("bisect")) // read by core/bisect, which says what is wrong in it
        s.bisect = r.object("bisect");
    return s;
}

} // namespace bootbench::core
