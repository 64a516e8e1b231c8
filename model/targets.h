#pragma once
// Named console targets (SEMANTICS.md §4 "Targets"): each a set of per-console facts, each fact
// with its source and how sure it is. `target NAME` in a case file and `--target NAME` select
// one; `target KEY VALUE` / `--target KEY=VALUE` set one fact on top. `conservative` is the
// default, and no named target is more liberal than it where a fact is not known.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/assumptions.h"
#include "model/case.h"

namespace syncproof::model {

struct TargetFact {
  std::string_view key;        // as in `target KEY VALUE`: gl2-rb-coherent
  bool value;                  // the fact's value on this target
  std::string_view certainty;  // known, inferred or assumed
  std::string_view source;     // why, with its source
};

struct NamedTarget {
  std::string_view name;     // conservative, xbox-series-x, xbox-series-s
  std::string_view summary;  // one line
  std::vector<TargetFact> facts;
};

const std::vector<NamedTarget>& named_targets();
const NamedTarget* find_target(std::string_view name);
// The fact keys and their values (`gl2-rb-coherent`: yes|no).
const std::vector<std::string_view>& target_keys();
// The facts of named target `t`.
Target target_facts(const NamedTarget& t);
// Applies one `target` setting: a named target (value empty) replaces every fact, a KEY VALUE
// sets one. Returns false for an unknown name, key or value (the linter has rejected those).
bool apply_target(Target& t, std::string_view name_or_key, std::string_view value);
// The case's target: its named target (conservative if none), then its `target KEY VALUE` lines.
Target target_for(const Case& c);
// Applies a command-line --target value: NAME or KEY=VALUE. An error message, or nothing.
std::optional<std::string> apply_target_option(Target& t, std::string_view option);
// Whether gl2-rb-coherent can change anything in the case: some resource (or aliasing bytes) is
// accessed both by the render back-ends (rt, depth) and by another client, or it has a standard
// barrier (whose lowering and cost read the target).
bool rb_coherence_matters(const Case& c);
// How a target reads in reports: "xbox-series-s (gl2-rb-coherent no; the same facts as
// conservative, xbox-series-x)", "xbox-series-x with gl2-rb-coherent yes" when a fact was set on
// top.
std::string describe(const Target& t);
// The facts of `t` alone: "gl2-rb-coherent no".
std::string describe_facts(const Target& t);
// The named targets whose facts are exactly `t`'s, in named_targets() order.
std::vector<std::string_view> targets_with_facts(const Target& t);
// Where `t`'s facts hold, for a sentence about another target: "gl2-rb-coherent no (conservative,
// xbox-series-x, xbox-series-s)", "gl2-rb-coherent yes (no named target)".
std::string describe_where(const Target& t);

}  // namespace syncproof::model
