// The named console targets and their facts (SEMANTICS.md §4 "Targets"; research §2.3, §8 q8).
#include "model/targets.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

namespace syncproof::model {

namespace {

constexpr std::string_view kGl2RbCoherent = "gl2-rb-coherent";

}  // namespace

const std::vector<NamedTarget>& named_targets() {
  static const std::vector<NamedTarget> kTargets = {
      {"conservative",
       "no fact assumed beyond the public RDNA2 sources: what holds here holds on every console",
       {{kGl2RbCoherent, false, "assumed",
         "the conservative value: GL2 is not coherent between the render back-ends and other "
         "clients on GPUs whose GL2 channel count is not a power of two and differs from the RB "
         "count (mesa src/amd/common/ac_gpu_info.c, tcc_rb_non_coherent; research §2.3)"}}},
      {"xbox-series-x",
       "Xbox Series X: 52 CUs, 16 GB of GDDR6 on a 320-bit bus",
       {{kGl2RbCoherent, false, "inferred",
         "the published memory system (Xbox Wire, 16 March 2020: a 320-bit GDDR6 bus) makes a "
         "power-of-two GL2 channel count unlikely (AMD's desktop RDNA2 parts have one GL2 channel "
         "per 16 bits of bus: 20 here), and mesa's tcc_rb_non_coherent rule "
         "(src/amd/common/ac_gpu_info.c) calls such a GPU non-coherent unless its render back-end "
         "count is equal. Neither count is published (research §2.3, §8 q8); `no` is also the "
         "conservative value"}}},
      {"xbox-series-s",
       "Xbox Series S: 20 CUs, 10 GB of GDDR6 on a 128-bit bus (8 GB at 224 GB/s, 2 GB at 56 GB/s)",
       {{kGl2RbCoherent, false, "assumed",
         "a 128-bit bus would suggest 8 GL2 channels, a power of two, which mesa's rule calls "
         "coherent; but the channel and render back-end counts are not published, the split "
         "memory pool is unlike any AMD desktop part's, and pipe-misaligned metadata (mesa "
         "radv_image_is_pipe_misaligned) needs the same GL2 write-back and invalidation: not "
         "known, so the conservative `no` (research §2.3, §8 q8)"}}},
  };
  return kTargets;
}

const NamedTarget* find_target(std::string_view name) {
  for (const NamedTarget& t : named_targets())
    if (t.name == name) return &t;
  return nullptr;
}

const std::vector<std::string_view>& target_keys() {
  static const std::vector<std::string_view> kKeys = {kGl2RbCoherent};
  return kKeys;
}

Target target_facts(const NamedTarget& t) {
  Target out;
  out.name = std::string(t.name);
  for (const TargetFact& f : t.facts)
    if (f.key == kGl2RbCoherent) out.gl2_rb_coherent = f.value;
  return out;
}

bool apply_target(Target& t, std::string_view name_or_key, std::string_view value) {
  if (value.empty()) {
    const NamedTarget* n = find_target(name_or_key);
    if (!n) return false;
    t = target_facts(*n);
    return true;
  }
  if (name_or_key != kGl2RbCoherent || (value != "yes" && value != "no")) return false;
  t.gl2_rb_coherent = value == "yes";
  const NamedTarget* base = find_target(t.name);
  t.changed = !base || target_facts(*base).gl2_rb_coherent != t.gl2_rb_coherent;
  return true;
}

Target target_for(const Case& c) {
  Target t;
  if (c.target) apply_target(t, *c.target, "");
  for (const auto& [k, v] : c.targets) apply_target(t, k, v);
  return t;
}

std::optional<std::string> apply_target_option(Target& t, std::string_view option) {
  const size_t eq = option.find('=');
  if (eq == std::string_view::npos) {
    if (apply_target(t, option, "")) return std::nullopt;
    std::vector<std::string> names;
    for (const NamedTarget& n : named_targets()) names.emplace_back(n.name);
    return fmt::format("unknown target '{}' ({}, or KEY=VALUE: gl2-rb-coherent=yes|no)", option,
                       fmt::join(names, ", "));
  }
  const std::string_view key = option.substr(0, eq), value = option.substr(eq + 1);
  if (apply_target(t, key, value)) return std::nullopt;
  if (key != kGl2RbCoherent) return fmt::format("unknown target key '{}' (gl2-rb-coherent)", key);
  return fmt::format("expected {}=yes or {}=no, got '{}'", key, key, option);
}

bool rb_coherence_matters(const Case& c) {
  std::vector<const Resource*> rb, other;
  for (const Queue& q : c.queues)
    for (const Command& cmd : q.commands)
      if (std::holds_alternative<BarrierCmd>(cmd.body))
        return true;  // a standard barrier's lowering and cost read the target
      else if (const auto* w = std::get_if<WorkCmd>(&cmd.body))
        for (const Access& a : w->accesses)
          (a.kind == AccessKind::Rt || a.kind == AccessKind::Depth ? rb : other)
              .push_back(&c.resources[a.resource]);
  for (const Resource* x : rb)
    for (const Resource* y : other)
      if (x->address <= y->address + (y->size - 1) && y->address <= x->address + (x->size - 1))
        return true;
  return false;
}

std::string describe_facts(const Target& t) {
  return fmt::format("gl2-rb-coherent {}", t.gl2_rb_coherent ? "yes" : "no");
}

std::string describe(const Target& t) {
  std::vector<std::string_view> same;
  for (std::string_view n : targets_with_facts(t))
    if (n != t.name) same.push_back(n);
  const std::string also =
      same.empty() ? "" : fmt::format("; the same facts as {}", fmt::join(same, ", "));
  if (t.changed) return fmt::format("{} with {}{}", t.name, describe_facts(t), also);
  return fmt::format("{} ({}{})", t.name, describe_facts(t), also);
}

std::vector<std::string_view> targets_with_facts(const Target& t) {
  std::vector<std::string_view> out;
  for (const NamedTarget& n : named_targets())
    if (target_facts(n).gl2_rb_coherent == t.gl2_rb_coherent) out.push_back(n.name);
  return out;
}

std::string describe_where(const Target& t) {
  const std::vector<std::string_view> names = targets_with_facts(t);
  return fmt::format(
      "{} ({})", describe_facts(t),
      names.empty() ? std::string("no named target") : fmt::format("{}", fmt::join(names, ", ")));
}

}  // namespace syncproof::model
