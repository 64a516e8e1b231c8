#include "properties/result.h"

#include <fmt/format.h>

#include <algorithm>

namespace syncproof::properties {

using namespace model;

bool as_expected(const Property& p, const Verdict& v) {
  switch (p.expect) {
    case Expectation::Report:  // any verdict; an engine error is never what was asked for
      return !std::holds_alternative<Error>(v);
    case Expectation::Holds:
      return std::holds_alternative<Proved>(v);
    case Expectation::Violated: {
      auto* viol = std::get_if<Violated>(&v);
      if (!viol) return false;
      for (const std::string& m : p.missing) {
        bool named =
            std::any_of(viol->trace.blamed.begin(), viol->trace.blamed.end(),
                        [&](const std::string& b) { return b.find(m) != std::string::npos; });
        if (!named) return false;
      }
      return true;
    }
  }
  return false;
}

std::vector<std::string> assumption_names(uint32_t mask) {
  std::vector<std::string> out;
  for (int a = 0; a < model::kAssumptionCount; ++a)
    if (mask & (1u << a))
      out.emplace_back(model::assumption(static_cast<model::AssumptionId>(a)).name);
  std::sort(out.begin(), out.end());
  return out;
}

void add_assumptions(Verdict& v, uint32_t bits) {
  auto* p = std::get_if<Proved>(&v);
  if (!p || !bits) return;
  for (std::string& name : assumption_names(bits)) p->assumptions.push_back(std::move(name));
  std::sort(p->assumptions.begin(), p->assumptions.end());
  p->assumptions.erase(std::unique(p->assumptions.begin(), p->assumptions.end()),
                       p->assumptions.end());
}

std::string property_text(const model::Case& c, const model::Property& p) {
  std::string s{model::to_string(p.kind)};
  if (p.kind == model::PropertyKind::Visible || p.kind == model::PropertyKind::Ordered)
    s += fmt::format(" {} -> {}", p.from, p.to);
  if (p.resource && *p.resource < c.resources.size()) s += " on " + c.resources[*p.resource].name;
  return s;
}

}  // namespace syncproof::properties
