#pragma once
// Two cases compared field by field, source positions, file name, lines and comments aside: what
// a case means. Returns "" when they are the same, else the first difference.
#include <fmt/format.h>

#include <string>

#include "model/case.h"

namespace syncproof::testing {

inline std::string case_difference(const model::Case& a, const model::Case& b) {
  using namespace model;
#define SP_SAME(x, what) \
  if (!((a_.x) == (b_.x))) return fmt::format("{} differs", what)
  {
    const Case& a_ = a;
    const Case& b_ = b;
    SP_SAME(title, "title");
    SP_SAME(profile, "profile");
    SP_SAME(targets, "targets");
    SP_SAME(assumptions.size(), "number of assumptions");
    SP_SAME(resources.size(), "number of resources");
    SP_SAME(fences.size(), "number of fences");
    SP_SAME(labels.size(), "number of labels");
    SP_SAME(queues.size(), "number of queues");
    SP_SAME(properties.size(), "number of properties");
  }
  for (size_t i = 0; i < a.assumptions.size(); ++i) {
    const auto& a_ = a.assumptions[i];
    const auto& b_ = b.assumptions[i];
    SP_SAME(enable, "assumption sign");
    SP_SAME(id, "assumption");
  }
  for (size_t i = 0; i < a.resources.size(); ++i) {
    const auto& a_ = a.resources[i];
    const auto& b_ = b.resources[i];
    SP_SAME(name, "resource name");
    SP_SAME(kind, "resource kind");
    SP_SAME(address, "resource address");
    SP_SAME(size, "resource size");
    SP_SAME(compressed, "compressed");
    SP_SAME(state, "initial state");
    SP_SAME(layout, "initial layout");
  }
  for (size_t i = 0; i < a.fences.size(); ++i) {
    const auto& a_ = a.fences[i];
    const auto& b_ = b.fences[i];
    SP_SAME(name, "fence");
  }
  for (size_t i = 0; i < a.labels.size(); ++i) {
    const auto& a_ = a.labels[i];
    const auto& b_ = b.labels[i];
    SP_SAME(name, "label name");
    SP_SAME(address, "label address");
  }
  for (size_t q = 0; q < a.queues.size(); ++q) {
    {
      const auto& a_ = a.queues[q];
      const auto& b_ = b.queues[q];
      SP_SAME(name, "queue name");
      SP_SAME(type, "queue type");
      SP_SAME(commands.size(), fmt::format("number of commands of queue {}", a_.name));
    }
    for (size_t i = 0; i < a.queues[q].commands.size(); ++i) {
      const Command& ca = a.queues[q].commands[i];
      const Command& cb = b.queues[q].commands[i];
      const std::string where = fmt::format("command {} of queue {}", i, a.queues[q].name);
      if (ca.label != cb.label) return where + ": label differs";
      if (ca.body.index() != cb.body.index()) return where + ": command differs";
      if (const auto* x = std::get_if<WorkCmd>(&ca.body)) {
        const auto& a_ = *x;
        const auto& b_ = std::get<WorkCmd>(cb.body);
        SP_SAME(kind, where + ": work kind");
        SP_SAME(api, where + ": API");
        SP_SAME(dispatch_flags, where + ": dispatch flags");
        SP_SAME(has_dispatch_flags, where + ": DispatchX");
        SP_SAME(wave32, where + ": wave32");
        SP_SAME(pfp_dma, where + ": pfp");
        SP_SAME(accesses.size(), where + ": number of accesses");
        for (size_t k = 0; k < x->accesses.size(); ++k) {
          const Access& p = x->accesses[k];
          const Access& r = b_.accesses[k];
          if (p.write != r.write || p.kind != r.kind || p.resource != r.resource ||
              p.stage != r.stage)
            return fmt::format("{}: access {} differs", where, k);
        }
      } else if (const auto* s = std::get_if<SyncCmd>(&ca.body)) {
        const auto& a_ = *s;
        const auto& b_ = std::get<SyncCmd>(cb.body);
        SP_SAME(api, where + ": API");
        SP_SAME(flags, where + ": SyncFlags");
        SP_SAME(control.bits, where + ": ControlFlags");
        SP_SAME(range.all, where + ": range");
        SP_SAME(range.base, where + ": BaseAddress");
        SP_SAME(range.size, where + ": SizeInBytes");
        SP_SAME(spelled.icache, where + ": spelled ICACHE_MARGIN");
        SP_SAME(spelled.gl1, where + ": spelled GL1_MARGIN");
        SP_SAME(spelled.gl2, where + ": spelled GL2_MARGIN");
      } else if (const auto* w = std::get_if<BopWriteCmd>(&ca.body)) {
        const auto& a_ = *w;
        const auto& b_ = std::get<BopWriteCmd>(cb.body);
        SP_SAME(api, where + ": API");
        SP_SAME(label, where + ": Destination label");
        SP_SAME(address, where + ": Destination");
        SP_SAME(value, where + ": Value");
        SP_SAME(flags, where + ": SyncFlags");
        SP_SAME(control.bits, where + ": ControlFlags");
        SP_SAME(source, where + ": WriteFlags");
      } else if (const auto* v = std::get_if<WaitValueCmd>(&ca.body)) {
        const auto& a_ = *v;
        const auto& b_ = std::get<WaitValueCmd>(cb.body);
        SP_SAME(is64, where + ": API");
        SP_SAME(label, where + ": Destination label");
        SP_SAME(address, where + ": Destination");
        SP_SAME(cmp, where + ": Comparison");
        SP_SAME(value, where + ": Value");
      } else if (const auto* g = std::get_if<SignalCmd>(&ca.body)) {
        const auto& a_ = *g;
        const auto& b_ = std::get<SignalCmd>(cb.body);
        SP_SAME(xbox, where + ": API");
        SP_SAME(fence, where + ": fence");
        SP_SAME(value, where + ": value");
        SP_SAME(flags, where + ": SyncFlags");
      } else if (const auto* r = std::get_if<BarrierCmd>(&ca.body)) {
        if (!same_barrier(*r, std::get<BarrierCmd>(cb.body))) return where + ": barrier differs";
      } else {
        const auto& a_ = std::get<WaitFenceCmd>(ca.body);
        const auto& b_ = std::get<WaitFenceCmd>(cb.body);
        SP_SAME(xbox, where + ": API");
        SP_SAME(fence, where + ": fence");
        SP_SAME(value, where + ": value");
        SP_SAME(flags, where + ": SyncFlags");
      }
    }
  }
  for (size_t i = 0; i < a.properties.size(); ++i) {
    const auto& a_ = a.properties[i];
    const auto& b_ = b.properties[i];
    const std::string where = fmt::format("property {}", i);
    SP_SAME(kind, where + ": kind");
    SP_SAME(expect, where + ": expectation");
    SP_SAME(from, where + ": from");
    SP_SAME(to, where + ": to");
    SP_SAME(resource, where + ": resource");
    SP_SAME(missing, where + ": missing");
  }
#undef SP_SAME
  return "";
}

}  // namespace syncproof::testing
