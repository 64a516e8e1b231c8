#include "stream/export.h"

#include <fmt/format.h>

#include "model/d3d12.h"
#include "stream/flag_text.h"

namespace syncproof::stream {

using namespace model;
using ojson = nlohmann::ordered_json;  // not `json`: import.cpp means nlohmann::json by it

namespace {

std::string hex(uint64_t v) {
  return fmt::format("0x{:X}", v);
}

std::string_view queue_type(QueueType t) {
  return t == QueueType::Graphics ? "graphics" : t == QueueType::Compute ? "compute" : "host";
}

bool is_draw(WorkKind k) {
  return k == WorkKind::Draw || k == WorkKind::IndirectDraw;
}

std::string destination(const Case& c, std::optional<uint32_t> label, uint64_t address) {
  return label ? c.labels[*label].name : hex(address);
}

ojson work(const Case& c, const WorkCmd& w) {
  ojson j = {{"api", w.api}};
  ojson accesses = ojson::array();
  bool args_done = false;
  for (const Access& a : w.accesses) {
    if (!args_done && a.kind == AccessKind::Indirect &&
        (w.kind == WorkKind::IndirectDraw || w.kind == WorkKind::IndirectDispatch)) {
      j["ArgumentBuffer"] = c.resources[a.resource].name;
      args_done = true;
      continue;
    }
    ojson x = {{"access", a.write ? "writes" : "reads"},
               {"resource", c.resources[a.resource].name},
               {"as", to_string(a.kind)}};
    // Only a draw's shader accesses choose their stage (vs or ps); the rest follow the work.
    if (shader_kind(a.kind) && is_draw(w.kind) && a.stage == Stage::Vs) x["stage"] = "vs";
    accesses.push_back(std::move(x));
  }
  if (w.kind == WorkKind::IndirectDraw) j["indirect"] = "draw";
  if (w.kind == WorkKind::IndirectDispatch) j["indirect"] = "dispatch";
  if (w.has_dispatch_flags) j["DispatchFlags"] = dispatch_flag_names(w.dispatch_flags);
  if (w.wave32) j["wave32"] = true;
  if (w.pfp_dma) j["pfp"] = true;
  j["accesses"] = accesses;
  return j;
}

// A d3d12.h word as an array of short names (a number for what no constant names).
ojson d3d12_names(d3d12::Family f, uint32_t v) {
  ojson out = ojson::array();
  const std::string text = d3d12::describe(f, v);
  for (size_t start = 0; start < text.size();) {
    size_t bar = text.find(" | ", start);
    if (bar == std::string::npos) bar = text.size();
    out.push_back(text.substr(start, bar - start));
    start = bar + 3;
  }
  return out;
}

ojson barrier(const Case& c, const BarrierCmd& b) {
  using F = d3d12::Family;
  auto res = [&](std::optional<uint32_t> r) { return r ? c.resources[*r].name : "NULL"; };
  ojson j = {{"api", barrier_api(b.kind)}, {"Type", to_string(b.kind)}};
  switch (b.kind) {
    case BarrierKind::Transition:
      j["Resource"] = res(b.resource);
      j["StateBefore"] = d3d12_names(F::ResourceState, b.state_before);
      j["StateAfter"] = d3d12_names(F::ResourceState, b.state_after);
      if (b.flags) j["Flags"] = d3d12_names(F::ResourceBarrierFlag, b.flags);
      return j;
    case BarrierKind::Uav:
      j["Resource"] = res(b.resource);
      return j;
    case BarrierKind::Aliasing:
      j["ResourceBefore"] = res(b.resource);
      j["ResourceAfter"] = res(b.resource_after);
      return j;
    default:
      break;
  }
  if (b.kind != BarrierKind::Global) j["Resource"] = res(b.resource);
  j["SyncBefore"] = d3d12_names(F::BarrierSync, b.sync_before);
  j["SyncAfter"] = d3d12_names(F::BarrierSync, b.sync_after);
  j["AccessBefore"] = d3d12_names(F::BarrierAccess, b.access_before);
  j["AccessAfter"] = d3d12_names(F::BarrierAccess, b.access_after);
  if (b.kind == BarrierKind::Texture) {
    j["LayoutBefore"] = d3d12::describe(F::BarrierLayout, b.layout_before);
    j["LayoutAfter"] = d3d12::describe(F::BarrierLayout, b.layout_after);
    if (b.discard) j["Flags"] = ojson::array({"DISCARD"});
  }
  return j;
}

ojson command(const Case& c, const Command& cmd) {
  return std::visit(
      [&](const auto& b) -> ojson {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, WorkCmd>) {
          return work(c, b);
        } else if constexpr (std::is_same_v<T, SyncCmd>) {
          return {
              {"api", to_string(b.api)},
              {"SyncFlags", sync_flag_names(b.flags, b.spelled)},
              {"ControlFlags", control_flag_names(b.control)},
              {"BaseAddress", b.range.all ? "0x0" : hex(b.range.base)},
              {"SizeInBytes", b.range.all ? std::string(kFlushRangeAllName) : hex(b.range.size)}};
        } else if constexpr (std::is_same_v<T, BopWriteCmd>) {
          return {{"api", to_string(b.api)},
                  {"Destination", destination(c, b.label, b.address)},
                  {"Value", b.value},
                  {"SyncFlags", sync_flag_names(b.flags)},
                  {"ControlFlags", control_flag_names(b.control)},
                  {"WriteFlags", write_flag_name(b.source)}};
        } else if constexpr (std::is_same_v<T, WaitValueCmd>) {
          return {{"api", b.is64 ? "Wait64BitValueX" : "Wait32BitValueX"},
                  {"Destination", destination(c, b.label, b.address)},
                  {"Comparison", to_string(b.cmp)},
                  {"Value", b.value}};
        } else if constexpr (std::is_same_v<T, BarrierCmd>) {
          return barrier(c, b);
        } else {
          constexpr bool signal = std::is_same_v<T, SignalCmd>;
          ojson j = {
              {"api", signal ? (b.xbox ? "Signal2X" : "Signal") : (b.xbox ? "WaitX" : "Wait")},
              {"Fence", c.fences[b.fence].name},
              {"Value", b.value}};
          if (b.xbox && b.flags) j["SyncFlags"] = sync_flag_names(b.flags);
          return j;
        }
      },
      cmd.body);
}

}  // namespace

ojson export_case(const Case& c) {
  ojson j = {{"format", kFormatName}, {"version", kFormatVersion}};
  if (!c.title.empty()) j["title"] = c.title;
  if (c.profile) j["profile"] = *c.profile;
  if (!c.assumptions.empty()) {
    ojson a = ojson::array();
    for (const AssumptionChoice& x : c.assumptions) a.push_back((x.enable ? "+" : "-") + x.id);
    j["assume"] = a;
  }
  if (c.target) j["target"] = *c.target;
  if (!c.targets.empty()) {
    ojson t = ojson::array();
    for (const auto& [k, v] : c.targets) t.push_back({{"key", k}, {"value", v}});
    j["targets"] = t;
  }
  ojson queues = ojson::array();
  for (const Queue& q : c.queues)
    queues.push_back({{"name", q.name}, {"type", queue_type(q.type)}});
  j["queues"] = queues;
  ojson resources = ojson::array();
  for (const Resource& r : c.resources) {
    ojson x = {{"name", r.name},
               {"kind", r.kind == ResourceKind::Buffer ? "buffer" : "texture"},
               {"address", hex(r.address)},
               {"size", hex(r.size)}};
    if (r.compressed) x["compressed"] = true;
    if (r.state) x["state"] = d3d12_names(d3d12::Family::ResourceState, *r.state);
    if (r.layout) x["layout"] = d3d12::describe(d3d12::Family::BarrierLayout, *r.layout);
    resources.push_back(std::move(x));
  }
  j["resources"] = resources;
  ojson fences = ojson::array();
  for (const Fence& f : c.fences) fences.push_back({{"name", f.name}});
  j["fences"] = fences;
  ojson labels = ojson::array();
  for (const Label& l : c.labels) labels.push_back({{"name", l.name}, {"address", hex(l.address)}});
  j["labels"] = labels;
  ojson commands = ojson::array();
  for (const Queue& q : c.queues)
    for (const Command& cmd : q.commands) {
      ojson x = {{"queue", q.name}};
      if (!cmd.label.empty()) x["label"] = cmd.label;
      x.update(command(c, cmd));
      commands.push_back(std::move(x));
    }
  j["commands"] = commands;
  ojson props = ojson::array();
  for (const Property& p : c.properties) {
    ojson x = {{"expect", p.expect == Expectation::Holds      ? "prove"
                          : p.expect == Expectation::Violated ? "refute"
                                                              : "check"},
               {"kind", to_string(p.kind)}};
    if (!p.from.empty()) x["from"] = p.from;
    if (!p.to.empty()) x["to"] = p.to;
    if (p.resource) x["on"] = c.resources[*p.resource].name;
    if (!p.missing.empty()) x["missing"] = p.missing;
    props.push_back(std::move(x));
  }
  j["properties"] = props;
  return j;
}

}  // namespace syncproof::stream
