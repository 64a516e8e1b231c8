#include "tools/metamorphic.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <optional>

#include "exec/check.h"
#include "model/d3d12.h"
#include "model/flags.h"
#include "model/validity.h"
#include "synth/flag_ops.h"

namespace syncproof::cli {

using namespace model;

namespace {

Case with_target(const Case& c, bool coherent) {
  Case v = c;
  v.targets.erase(std::remove_if(v.targets.begin(), v.targets.end(),
                                 [](const auto& t) { return t.first == "gl2-rb-coherent"; }),
                  v.targets.end());
  v.targets.push_back({"gl2-rb-coherent", coherent ? "yes" : "no"});
  return v;
}

Case with_profile(const Case& c, Profile p) {
  Case v = c;
  v.profile = std::string(to_string(p));
  return v;
}

Case with_assumption(const Case& c, AssumptionId a, bool on) {
  Case v = c;
  const std::string name(assumption(a).name);
  v.assumptions.erase(std::remove_if(v.assumptions.begin(), v.assumptions.end(),
                                     [&](const AssumptionChoice& x) { return x.id == name; }),
                      v.assumptions.end());
  v.assumptions.push_back({on, name, {}});
  return v;
}

using synth::carrier;  // the SyncFlags word of a command that carries one, and its API
using synth::operation_flags;

std::string short_name(const FlagDef& d) {
  return std::string(d.name.substr(family_prefix(d.family).size()));
}

bool has_barriers(const Case& c) {
  for (const Queue& q : c.queues)
    for (const Command& cmd : q.commands)
      if (std::holds_alternative<BarrierCmd>(cmd.body)) return true;
  return false;
}

// More barrier never proves less: each standard barrier (a split one's two halves together)
// against the case without it, and each unsplit enhanced barrier against itself widened to
// SYNC_ALL on both sides and ACCESS_COMMON on both sides (every earlier work and write, every
// later work and access).
void barrier_mutations(const Case& c, std::vector<std::pair<Variant, Variant>>& out) {
  for (size_t q = 0; q < c.queues.size(); ++q)
    for (size_t i = 0; i < c.queues[q].commands.size(); ++i) {
      const Command& cmd = c.queues[q].commands[i];
      const auto* b = std::get_if<BarrierCmd>(&cmd.body);
      if (!b) continue;
      const SplitPart part = split_part(*b);
      if (part == SplitPart::End) continue;  // removed with its BEGIN half
      const unsigned line = cmd.loc.line;
      Case without = c;
      auto& cmds = without.queues[q].commands;
      if (part == SplitPart::Begin) {
        for (size_t k = i + 1; k < cmds.size(); ++k) {
          const auto* e = std::get_if<BarrierCmd>(&cmds[k].body);
          if (e && split_part(*e) == SplitPart::End && e->resource == b->resource) {
            cmds.erase(cmds.begin() + static_cast<long>(k));
            break;
          }
        }
      }
      cmds.erase(cmds.begin() + static_cast<long>(i));
      // A command label the properties name stays (an unlabelled barrier is what is removed).
      if (!cmd.label.empty()) continue;
      out.push_back(
          {{std::move(without), fmt::format("remove the barrier at line {}", line), false},
           {c, fmt::format("keep the barrier at line {}", line), true}});
      if (is_legacy(b->kind) || part != SplitPart::None) continue;
      Case wide = c;
      auto& w = std::get<BarrierCmd>(wide.queues[q].commands[i].body);
      w.sync_before =
          w.sync_before == d3d12::kSync.none ? d3d12::kSync.all : w.sync_before | d3d12::kSync.all;
      w.sync_after =
          w.sync_after == d3d12::kSync.none ? d3d12::kSync.all : w.sync_after | d3d12::kSync.all;
      w.access_before = w.access_after = d3d12::kAccess.common;
      out.push_back({{c, fmt::format("the barrier at line {} as written", line), true, cmd.label},
                     {std::move(wide), fmt::format("the barrier at line {} widened", line), false,
                      cmd.label}});
    }
}

}  // namespace

std::vector<std::pair<Variant, Variant>> relations(const Case& c, size_t flags_per_case) {
  std::vector<std::pair<Variant, Variant>> out;
  const ModelConfig base = config_for(c, std::nullopt, {});
  auto pair = [&](Case cons, std::string cw, Case lib, std::string lw) {
    const bool cs =
        config_for(cons, std::nullopt, {}).assumptions.on == base.assumptions.on &&
        config_for(cons, std::nullopt, {}).target.gl2_rb_coherent == base.target.gl2_rb_coherent;
    const bool ls =
        config_for(lib, std::nullopt, {}).assumptions.on == base.assumptions.on &&
        config_for(lib, std::nullopt, {}).target.gl2_rb_coherent == base.target.gl2_rb_coherent;
    out.push_back({{std::move(cons), std::move(cw), cs}, {std::move(lib), std::move(lw), ls}});
  };
  pair(with_target(c, false), "target gl2-rb-coherent no", with_target(c, true),
       "target gl2-rb-coherent yes");
  pair(with_profile(c, Profile::Strict), "profile strict", with_profile(c, Profile::Rdna2),
       "profile rdna2");
  const bool barriers = has_barriers(c);
  for (const AssumptionDef& a : all_assumptions()) {
    // A-BARRIER-PAL changes nothing in a case without standard barriers.
    if (a.id == AssumptionId::BarrierPal && !barriers) continue;
    pair(with_assumption(c, a.id, false), fmt::format("assume -{}", a.name),
         with_assumption(c, a.id, true), fmt::format("assume +{}", a.name));
  }
  // Flag mutations: (without the flag, with it) for every sync and operation flag its API takes.
  std::vector<std::pair<Variant, Variant>> flags;
  const auto ops = operation_flags();
  for (size_t q = 0; q < c.queues.size(); ++q)
    for (size_t i = 0; i < c.queues[q].commands.size(); ++i) {
      Case probe = c;
      auto car = carrier(probe.queues[q].commands[i]);
      if (!car) continue;
      const QueueType qt = c.queues[q].type;
      const uint32_t word = *car->flags;
      const unsigned line = c.queues[q].commands[i].loc.line;
      for (const FlagDef* d : ops) {
        const uint32_t bit = *d->value;
        const bool icache = bit == 1;
        const bool present = icache ? (word & 3u) == 1u : (word & bit) != 0;
        if (icache && (word & 3u) > 1u) continue;  // a RANGE/MARGIN selector: not an operation
        const uint32_t with = word | bit, without = icache ? word & ~3u : word & ~bit;
        SyncFlagContext ctx{car->api, qt};
        auto valid = [&](uint32_t w) {
          for (const FlagProblem& fp : check_sync_flags(w, ctx))
            if (fp.severity == Severity::Error) return false;
          return true;
        };
        if (!valid(with) || !valid(without)) continue;
        Case a = c, b = c;
        *carrier(a.queues[q].commands[i])->flags = without;
        *carrier(b.queues[q].commands[i])->flags = with;
        const std::string verb = present ? "remove" : "add";
        flags.push_back(
            {{std::move(a),
              fmt::format("{} {} at line {} (without it)", verb, short_name(*d), line), !present,
              c.queues[q].commands[i].label},
             {std::move(b), fmt::format("{} {} at line {} (with it)", verb, short_name(*d), line),
              present, c.queues[q].commands[i].label}});
      }
    }
  barrier_mutations(c, flags);
  if (flags_per_case && flags.size() > flags_per_case) {
    std::vector<std::pair<Variant, Variant>> some;
    for (size_t k = 0; k < flags_per_case; ++k)
      some.push_back(std::move(flags[k * flags.size() / flags_per_case]));
    flags.swap(some);
  }
  for (auto& f : flags) out.push_back(std::move(f));
  return out;
}

exec::ExecOptions metamorphic_exec_options(const encode::CheckOptions& opt) {
  exec::ExecOptions eo;
  eo.timeout_ms = opt.timeout_ms;
  eo.minimize_assumptions = false;
  eo.first_violation = true;  // a verdict, not how many obligations fail
  return eo;
}

std::vector<MetaProblem> metamorphic_check(const Case& c, const encode::CheckOptions& opt,
                                           size_t flags_per_case, MetaEngine engine) {
  encode::CheckOptions o = opt;
  o.profile.reset();
  o.assume.clear();
  o.dump_dir.reset();
  o.first_violation = true;  // the relations compare verdicts, never counts
  const exec::ExecOptions eo = metamorphic_exec_options(opt);
  exec::ExecOptions base = eo;
  base.minimize_assumptions = true;  // the case's own lists are checked: the ones users see
  return metamorphic_check(
      c,
      [&](const Case& v) {
        if (engine == MetaEngine::Smt) return encode::check_case(v, o);
        return exec::check_case(v, &v == &c ? base : eo);
      },
      flags_per_case);
}

namespace {

using Run = std::function<properties::CaseResult(const Case&)>;
// A variant's verdicts by property of the case; nullopt: not asked.
using Verdicts = std::vector<std::optional<properties::Verdict>>;

Verdicts all_of(const properties::CaseResult& r) {
  Verdicts out;
  for (const auto& x : r.results) out.emplace_back(x.verdict);
  return out;
}

// `run` on the variant `v` asked only the properties `which` (indices of the case's properties,
// which every variant keeps in order). An engine decides each property on its own (the others
// asked change nothing of its verdict), so these are the verdicts a run asking all would give.
Verdicts ask_only(const Run& run, Case v, const std::vector<size_t>& which) {
  Verdicts out(v.properties.size());
  if (which.empty()) return out;
  std::vector<Property> all = std::move(v.properties);
  v.properties.clear();
  for (size_t i : which) v.properties.push_back(all[i]);
  const properties::CaseResult r = run(v);
  for (size_t k = 0; k < which.size() && k < r.results.size(); ++k)
    out[which[k]] = r.results[k].verdict;
  return out;
}

template <class V>
bool is(const std::optional<properties::Verdict>& v) {
  return v && std::holds_alternative<V>(*v);
}

}  // namespace

std::vector<MetaProblem> metamorphic_check(const Case& c, const Run& run, size_t flags_per_case) {
  const properties::CaseResult base = run(c);
  const Verdicts as_is = all_of(base);
  std::vector<MetaProblem> out;
  // A proof's assumption list suffices: with every assumption it does not list turned off, the
  // property is still proved (one run per distinct list, asked the properties with that list).
  std::map<std::vector<std::string>, std::vector<size_t>> by_list;
  for (size_t i = 0; i < c.properties.size(); ++i)
    if (const auto* p = std::get_if<properties::Proved>(&base.results[i].verdict))
      by_list[p->assumptions].push_back(i);
  std::map<std::vector<std::string>, Verdicts> only;
  for (const auto& [list, props] : by_list) {
    Case v = c;
    for (const AssumptionDef& a : all_assumptions())
      if (std::find(list.begin(), list.end(), a.name) == list.end())
        v = with_assumption(v, a.id, false);
    only.emplace(list, ask_only(run, std::move(v), props));
  }
  for (size_t i = 0; i < c.properties.size(); ++i) {
    const auto* p = std::get_if<properties::Proved>(&base.results[i].verdict);
    if (!p) continue;
    const std::optional<properties::Verdict>& v = only.at(p->assumptions)[i];
    if (!is<properties::Violated>(v)) continue;
    out.push_back(
        {fmt::format("only the proof's assumptions [{}] on", fmt::join(p->assumptions, ", ")), i,
         fmt::format("proved [{}], violated with only those assumptions on: {}",
                     fmt::join(p->assumptions, ", "),
                     std::get<properties::Violated>(*v).trace.why)});
  }
  for (const auto& [cons, lib] : relations(c, flags_per_case)) {
    if (cons.same && lib.same) continue;
    const std::string& mutated = cons.mutated.empty() ? lib.mutated : cons.mutated;
    // Only a property the conservative side proves and the liberal side violates breaks the
    // relation. A side that is the case itself is known already, so the other side is asked only
    // the properties that can still break it (none: no run at all); with neither, the liberal
    // side is asked what the conservative side proved.
    std::vector<size_t> open;
    for (size_t i = 0; i < c.properties.size(); ++i) {
      const model::Property& prop = c.properties[i];
      if (!mutated.empty() && prop.kind == model::PropertyKind::Ordered &&
          (prop.from == mutated || prop.to == mutated))
        continue;  // the mutation changed what the property asks (metamorphic.h)
      if (cons.same && !is<properties::Proved>(as_is[i])) continue;
      if (lib.same && !is<properties::Violated>(as_is[i])) continue;
      open.push_back(i);
    }
    const Verdicts a = cons.same ? as_is : ask_only(run, cons.c, open);
    if (!cons.same) std::erase_if(open, [&](size_t i) { return !is<properties::Proved>(a[i]); });
    const Verdicts b = lib.same ? as_is : ask_only(run, lib.c, open);
    for (size_t i : open)
      if (is<properties::Proved>(a[i]) && is<properties::Violated>(b[i]))
        out.push_back({fmt::format("{} vs {}", cons.what, lib.what), i,
                       fmt::format("proved under {}, violated under {}: {}", cons.what, lib.what,
                                   std::get<properties::Violated>(*b[i]).trace.why)});
  }
  return out;
}

}  // namespace syncproof::cli
