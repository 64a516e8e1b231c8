#include "tools/options.h"

#include <fmt/format.h>

#include "model/assumptions.h"
#include "model/targets.h"
#include "tools/synth_engines.h"
#include "util/edit_distance.h"

namespace syncproof::cli {

namespace {

// A validator from a function that returns the problem with a value ("" when it is good).
CLI::Validator check(std::string name, std::function<std::string(const std::string&)> f) {
  return CLI::Validator([f = std::move(f)](std::string& s) { return f(s); }, std::move(name));
}

std::vector<std::string> assumption_names() {
  std::vector<std::string> out;
  for (const model::AssumptionDef& a : model::all_assumptions()) out.emplace_back(a.name);
  return out;
}

}  // namespace

CLI::Option* add_timeout(CLI::App& cmd, unsigned& ms) {
  return cmd
      .add_option("--timeout", ms,
                  "wall-clock budget per solver question, in ms, both engines (20000; at least 1)")
      ->check(check("MS>=1", [](const std::string& s) -> std::string {
        std::uint64_t v = 0;
        if (!CLI::detail::lexical_cast(s, v) || v > 4294967295u)
          return "expected a number of milliseconds, 1 to 4294967295, got '" + s + "'";
        if (v == 0) return "0 is not a budget: give at least 1 ms (4294967295 for about 50 days)";
        return "";
      }));
}

CLI::Option* add_budget(CLI::App& cmd, size_t& calls, std::string_view what) {
  return cmd
      .add_option("--budget", calls, fmt::format("engine calls per {} (3000; at least 1)", what))
      ->check(check("N>=1", [](const std::string& s) -> std::string {
        std::uint64_t v = 0;
        if (!CLI::detail::lexical_cast(s, v))
          return "expected a number of engine calls, got '" + s + "'";
        if (v == 0) return "must be at least 1 (engine calls)";
        return "";
      }));
}

CLI::Option* add_profile(CLI::App& cmd, std::string& profile) {
  return cmd.add_option("--profile", profile, "model profile: rdna2 (default) or strict")
      ->check(check("PROFILE", [](const std::string& s) -> std::string {
        if (model::find_profile(s)) return "";
        return fmt::format("unknown profile '{}' (strict, rdna2)", s);
      }));
}

CLI::Option* add_assume(CLI::App& cmd, std::vector<std::string>& assume) {
  // One value per occurrence: `--assume +A cases/` must not swallow the path.
  return cmd
      .add_option("--assume", assume,
                  "+ID / -ID: turn a named assumption on or off (model/SEMANTICS.md; repeatable)")
      ->allow_extra_args(false)
      ->check(check("+ID|-ID", [](const std::string& s) -> std::string {
        const std::string id = !s.empty() && (s[0] == '+' || s[0] == '-') ? s.substr(1) : s;
        if (model::find_assumption(id)) return "";
        const auto near = util::closest(id, assumption_names());
        return fmt::format("unknown assumption '{}'{} (model/SEMANTICS.md lists them)", id,
                           near ? fmt::format("; did you mean '{}'?", *near) : "");
      }));
}

CLI::Option* add_cost(CLI::App& cmd, std::vector<std::string>& costs) {
  return cmd.add_option("--cost", costs, "NAME=N: override a cost of model/COSTS.md (repeatable)")
      ->allow_extra_args(false)
      ->check(check("NAME=N", [](const std::string& s) -> std::string {
        model::CostModel m;
        auto err = apply_costs(m, {s});
        if (!err) return "";
        std::string msg = *err;  // "--cost 'X': ...": the option's name is said once
        if (msg.starts_with("--cost ")) msg.erase(0, 7);
        return msg;
      }));
}

CLI::Option* add_max_states(CLI::App& cmd, uint64_t& states) {
  return cmd
      .add_option("--max-states", states,
                  "executor budget: states per search (20000000; at least 1); exhausted gives "
                  "unknown")
      ->check(CLI::Range(uint64_t{1}, UINT64_MAX, "N>=1"));
}

CLI::Option* add_jobs(CLI::App& cmd, unsigned& jobs, std::string_view what) {
  return cmd.add_option("--jobs,-j", jobs, std::string(what));
}

CLI::Option* add_engine(CLI::App& cmd, std::string& engine, const std::vector<std::string>& names,
                        std::string_view help) {
  return cmd.add_option("--engine", engine, std::string(help))
      ->check(check("ENGINE", [names](const std::string& s) -> std::string {
        for (const std::string& n : names)
          if (n == s) return "";
        return fmt::format("unknown engine '{}' ({})", s, fmt::join(names, ", "));
      }));
}

CLI::Option* add_color(CLI::App& cmd, std::string& mode) {
  return cmd
      .add_option("--color", mode,
                  "auto (default: only on a terminal, and not when NO_COLOR is set), always or "
                  "never")
      ->check(check("WHEN", [](const std::string& s) -> std::string {
        if (s == "auto" || s == "always" || s == "never") return "";
        return fmt::format("expected auto, always or never, got '{}'", s);
      }));
}

CLI::Option* add_max_file_size(CLI::App& cmd, std::uint64_t& bytes) {
  return cmd
      .add_option("--max-file-size", bytes,
                  "largest case file read, in bytes or with a unit: 64MiB (default), 1G, ...; "
                  "larger ones are refused (exit 7)")
      ->transform(CLI::AsSizeValue(false))
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1} << 40, "SIZE in 1 byte..1 TiB"));
}

CLI::Option* add_max_memory(CLI::App& cmd, std::uint64_t& bytes) {
  return cmd
      .add_option("--max-memory", bytes,
                  "address space the run may use, e.g. 8G (default: 3/4 of the physical memory; "
                  "0 = none); a case that needs more stops with exit 70 and its size")
      ->transform(CLI::AsSizeValue(false));
}

CLI::Option* add_target(CLI::App& cmd, std::vector<std::string>& target) {
  return cmd
      .add_option("--target", target,
                  "NAME or KEY=VALUE: a console target (conservative, the default; "
                  "xbox-series-x; xbox-series-s) or one fact (gl2-rb-coherent=yes|no); "
                  "repeatable, applied in order over the case's `target` lines "
                  "(model/SEMANTICS.md §4)")
      ->allow_extra_args(false)
      ->check(check("TARGET", [](const std::string& s) -> std::string {
        model::Target t;
        const auto err = model::apply_target_option(t, s);
        if (!err) return "";
        const std::string word = s.substr(0, s.find('='));
        std::vector<std::string> names;
        for (const model::NamedTarget& n : model::named_targets()) names.emplace_back(n.name);
        for (std::string_view k : model::target_keys()) names.emplace_back(k);
        const auto near = util::closest(word, names);
        return *err + (near && *near != word ? fmt::format("; did you mean '{}'?", *near) : "");
      }));
}

void apply_model_options(const std::string& profile, const std::vector<std::string>& assume,
                         const std::vector<std::string>& target, encode::CheckOptions& smt,
                         exec::ExecOptions& ex) {
  smt.target = ex.target = target;
  if (!profile.empty()) smt.profile = model::find_profile(profile);
  for (const std::string& s : assume) {
    const bool on = s.empty() || s[0] != '-';
    smt.assume.push_back({on, !s.empty() && (s[0] == '+' || s[0] == '-') ? s.substr(1) : s});
  }
  ex.profile = smt.profile, ex.assume = smt.assume;
}

}  // namespace syncproof::cli
