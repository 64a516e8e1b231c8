// The recorder: every call becomes one line of case text, remembered with its call site;
// Verify() parses that text with the case-language parser (its linter
// included) and checks it with the SMT engine, then maps lines back to the calls.
#include <fmt/format.h>

#include <map>

#include "encode/check.h"
#include "model/d3d12.h"
#include "model/flags.h"
#include "record/recorded.h"
#include "stream/flag_text.h"

namespace syncproof::record {

using namespace d3d12;

// The public constants must be the catalogue's.
static_assert(D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE == model::sync::kGl1Invalidate);
static_assert(D3D12XBOX_SYNC_FLAG_GL2_MARGIN == model::sync::kGl2Margin);
static_assert(D3D12XBOX_SYNC_FLAG_IDLE == model::sync::kIdle);
static_assert(D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH == model::sync::kCsPartialFlush);
static_assert(D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_COHERENCY == model::sync::kColorBlockCoherency);
static_assert(D3D12XBOX_DISPATCH_FLAG_W32 == model::dispatch::kW32);
static_assert(D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_VECTOR_L1 ==
              model::dispatch::kInvalidateVolatileVectorL1);

Origin origin(const Where& w) {
  return {w.file, w.line, w.column};
}

bool identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char ch : s)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' || ch == '-'))
      return false;
  return s.find("->") == std::string_view::npos;
}

std::string_view kind_name(Kind k) {
  constexpr std::string_view names[] = {"srv",      "cbv",         "uav", "vertex", "index",
                                        "indirect", "shader-code", "rt",  "depth",  "copy-src",
                                        "copy-dst", "streamout",   "host"};
  return names[static_cast<int>(k)];
}

std::string accesses_text(const std::vector<Access>& as) {
  std::string out;
  for (const Access& a : as) {
    if (!out.empty()) out += ", ";
    out += fmt::format("{} {} as {}", a.write ? "writes" : "reads", a.resource, kind_name(a.kind));
    if (a.stage != Stage::Default)
      out += a.stage == Stage::Vs ? " in vs" : a.stage == Stage::Ps ? " in ps" : " in cs";
  }
  return out;
}

std::string sync_text(uint32_t flags) {
  return stream::join_flags(stream::sync_flag_names(flags));
}

std::string control_text(uint32_t control) {
  model::ControlFlags cf;
  std::vector<std::string> unknown;
  for (int i = 0; i < model::kControlFlagCount; ++i)
    if (control & (1u << i)) cf.set(static_cast<model::ControlFlag>(i));
  std::vector<std::string> names = stream::control_flag_names(cf);
  // Bits outside syncproof's numbering: written as a number, which the linter rejects (control
  // flags have no published values), at the call.
  if (control >> model::kControlFlagCount) {
    if (names == std::vector<std::string>{"NONE"}) names.clear();
    names.push_back(fmt::format("0x{:X}", control & ~((1u << model::kControlFlagCount) - 1)));
  }
  return stream::join_flags(names);
}

std::string write_flags_text(uint32_t flags) {
  std::vector<std::string> names;
  if (flags & D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP) names.push_back("GPU_TIMESTAMP");
  if (flags & D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP) names.push_back("SYSTEM_TIMESTAMP");
  if (flags & ~3u) names.push_back(fmt::format("0x{:X}", flags & ~3u));
  if (names.empty()) names.push_back("NONE");
  return stream::join_flags(names);
}

std::string size_text(uint64_t size) {
  return size == D3D12XBOX_FLUSH_RANGE_ALL ? "D3D12XBOX_FLUSH_RANGE_ALL"
                                           : fmt::format("0x{:X}", size);
}

std::string comparison_text(uint32_t c) {
  constexpr std::string_view names[] = {"NEVER",   "LESS",      "EQUAL",         "LESS_EQUAL",
                                        "GREATER", "NOT_EQUAL", "GREATER_EQUAL", "ALWAYS"};
  if (c < 1 || c > 8) return fmt::format("COMPARISON_{}", c);
  return std::string(names[c - 1]);
}

std::string dispatch_text(uint32_t flags) {
  return stream::join_flags(stream::dispatch_flag_names(flags));
}

std::string resource_states_text(uint32_t states) {
  return model::d3d12::describe(model::d3d12::Family::ResourceState, states);
}
std::string barrier_sync_text(uint32_t sync) {
  return model::d3d12::describe(model::d3d12::Family::BarrierSync, sync);
}
std::string barrier_access_text(uint32_t access) {
  return model::d3d12::describe(model::d3d12::Family::BarrierAccess, access);
}
std::string barrier_layout_text(uint32_t layout) {
  return model::d3d12::describe(model::d3d12::Family::BarrierLayout, layout);
}

std::string Recorder::Impl::name(std::string n, const Where& w, std::string_view what) {
  if (identifier(n)) {
    used.insert(n);
    return n;
  }
  problems.push_back({"error", w.file, w.line, w.column, 0,
                      fmt::format("{} name '{}' is not a case-language identifier "
                                  "([A-Za-z_][A-Za-z0-9_.-]*)",
                                  what, n)});
  return fmt::format("invalid_name_{}", ++invalid);
}

namespace {
std::string sanitized(std::string_view wanted) {
  std::string base;
  for (char ch : wanted)
    base += std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.' ? ch : '_';
  if (base.empty() || !(std::isalpha(static_cast<unsigned char>(base[0])) || base[0] == '_'))
    base = "_" + base;
  return base;
}
}  // namespace

std::string Recorder::Impl::unique(std::string_view wanted) {
  const std::string base = sanitized(wanted);
  std::string n = base;
  for (int k = 2; used.count(n); ++k) n = fmt::format("{}.{}", base, k);
  used.insert(n);
  return n;
}

std::string Recorder::Impl::declaration(std::string_view wanted, std::string_view what,
                                        const std::string& old) {
  const std::string n = unique(wanted);
  if (!old.empty()) declared.erase(old);
  declare(sanitized(wanted), n, what);
  return n;
}

void Recorder::Impl::declare(const std::string& wanted, const std::string& n,
                             std::string_view what) {
  if (auto it = event_names.find(wanted); it != event_names.end())
    name_clash(wanted, what, it->second);
  declared.emplace(n, what);
}

std::string Recorder::Impl::event_label(std::string_view wanted, const Origin& at) {
  const std::string base = sanitized(wanted);
  if (auto it = declared.find(base); it != declared.end()) name_clash(base, it->second, at);
  event_names.emplace(base, at);
  return unique(wanted);
}

void Recorder::Impl::name_clash(const std::string& name, std::string_view what, const Origin& at) {
  if (!clashes.insert(name).second) return;
  problems.push_back(
      {"error", at.file, at.line, at.column, 0,
       fmt::format("PIX event '{0}' has the name of a {1}: Visible(\"{0}\", ...) and Ordered "
                   "could not name its pass (the case text has one namespace); rename the event "
                   "or the {1}",
                   name, what)});
}

size_t Recorder::Impl::add_queue(std::string n, QueueType type, Origin at) {
  const char* t = type == QueueType::Graphics  ? "graphics"
                  : type == QueueType::Compute ? "compute"
                                               : "host";
  decls.push_back({fmt::format("queue {} {}", n, t), std::move(at), ""});
  queues.push_back({n, {}, {}});
  return queues.size() - 1;
}

void Recorder::Impl::unmodelled(std::string_view method, const Origin& at) {
  if (!not_modelled.insert(std::string(method)).second) return;
  problems.push_back({"warning", at.file, at.line, at.column, 0,
                      at.file.empty()
                          ? fmt::format("not modelled: {}", method)
                          : fmt::format("not modelled: {} at {}:{}", method, at.file, at.line)});
}

// ---- accesses and properties ----

Access Reads(const Resource& r, Kind k, Stage s) {
  return {false, r.name, k, s};
}
Access Writes(const Resource& r, Kind k, Stage s) {
  return {true, r.name, k, s};
}

Property Visible(std::string from, std::string to, std::string on) {
  return {"visible", std::move(from), std::move(to), std::move(on)};
}
Property Ordered(std::string from, std::string to) {
  return {"ordered", std::move(from), std::move(to), ""};
}
Property NoHazards() {
  return {"no-hazards", "", "", ""};
}
Property DeadlockFree() {
  return {"deadlock-free", "", "", ""};
}

// ---- CommandList ----

CommandList::CommandList() : cmds_(std::make_unique<std::vector<Command>>()) {}
CommandList::~CommandList() = default;
CommandList::CommandList(CommandList&&) noexcept = default;
CommandList& CommandList::operator=(CommandList&&) noexcept = default;

const std::vector<Command>& CommandList::commands() const {
  return *cmds_;
}

void CommandList::Label(std::string name) {
  label_ = std::move(name);
}
void CommandList::SetAccesses(std::vector<Access> accesses) {
  pending_ = std::move(accesses);
}
void CommandList::SetCopyEngine(bool pfp_dma) {
  pfp_dma_ = pfp_dma;
}
void CommandList::SetWave32(bool wave32) {
  wave32_ = wave32;
}

void CommandList::add(std::string text, Where w) {
  std::string problem;
  if (!label_.empty() && !identifier(label_)) {
    problem = fmt::format("command label '{}' is not a case-language identifier", label_);
    label_ = "invalid_label";
  }
  if (!label_.empty()) text = label_ + ": " + text;
  label_.clear();
  cmds_->push_back({std::move(text), origin(w), std::move(problem)});
}

void CommandList::work(std::string api, std::string attrs, std::vector<Access> accesses, Where w) {
  if (accesses.empty()) accesses = std::move(pending_);
  pending_.clear();
  std::string text = api;
  if (!attrs.empty()) text += " " + attrs;
  if (!accesses.empty()) text += " " + accesses_text(accesses);
  add(std::move(text), w);
}

void CommandList::SyncTopOfPipeX(uint32_t SyncFlags, uint32_t ControlFlags, uint64_t BaseAddress,
                                 uint64_t SizeInBytes, Where w) {
  add(fmt::format("SyncTopOfPipeX({}, {}, 0x{:X}, {})", sync_text(SyncFlags),
                  control_text(ControlFlags), BaseAddress, size_text(SizeInBytes)),
      w);
}
void CommandList::SyncBottomOfPipeX(uint32_t SyncFlags, uint32_t ControlFlags, uint64_t BaseAddress,
                                    uint64_t SizeInBytes, Where w) {
  add(fmt::format("SyncBottomOfPipeX({}, {}, 0x{:X}, {})", sync_text(SyncFlags),
                  control_text(ControlFlags), BaseAddress, size_text(SizeInBytes)),
      w);
}
void CommandList::Write32BitValueBottomOfPipe2X(uint64_t Destination, uint32_t Value,
                                                uint32_t SyncFlags, uint32_t ControlFlags,
                                                uint32_t WriteFlags, Where w) {
  add(fmt::format("Write32BitValueBottomOfPipe2X(@{:X}, {}, {}, {}, {})", Destination, Value,
                  sync_text(SyncFlags), control_text(ControlFlags), write_flags_text(WriteFlags)),
      w);
}
void CommandList::Write64BitValueBottomOfPipe2X(uint64_t Destination, uint64_t Value,
                                                uint32_t SyncFlags, uint32_t ControlFlags,
                                                uint32_t WriteFlags, Where w) {
  add(fmt::format("Write64BitValueBottomOfPipe2X(@{:X}, {}, {}, {}, {})", Destination, Value,
                  sync_text(SyncFlags), control_text(ControlFlags), write_flags_text(WriteFlags)),
      w);
}
void CommandList::Wait32BitValueX(uint64_t Destination, D3D12_COMPARISON_FUNC Comparison,
                                  uint32_t Value, Where w) {
  add(fmt::format("Wait32BitValueX(@{:X}, {}, {})", Destination, comparison_text(Comparison),
                  Value),
      w);
}
void CommandList::Wait64BitValueX(uint64_t Destination, D3D12_COMPARISON_FUNC Comparison,
                                  uint64_t Value, Where w) {
  add(fmt::format("Wait64BitValueX(@{:X}, {}, {})", Destination, comparison_text(Comparison),
                  Value),
      w);
}

void CommandList::Dispatch(uint32_t, uint32_t, uint32_t, std::vector<Access> accesses, Where w) {
  work("Dispatch", wave32_ ? "[wave32]" : "", std::move(accesses), w);
}
void CommandList::DispatchX(uint32_t, uint32_t, uint32_t, uint32_t DispatchFlags,
                            std::vector<Access> accesses, Where w) {
  work(fmt::format("DispatchX({})", dispatch_text(DispatchFlags)), wave32_ ? "[wave32]" : "",
       std::move(accesses), w);
}
void CommandList::DrawInstanced(uint32_t, uint32_t, uint32_t, uint32_t,
                                std::vector<Access> accesses, Where w) {
  work("DrawInstanced", "", std::move(accesses), w);
}
void CommandList::DrawIndexedInstanced(uint32_t, uint32_t, uint32_t, int32_t, uint32_t,
                                       std::vector<Access> accesses, Where w) {
  work("DrawIndexedInstanced", "", std::move(accesses), w);
}
void CommandList::ExecuteIndirect(IndirectKind CommandSignature, uint32_t,
                                  const Resource& ArgumentBuffer, uint64_t,
                                  std::vector<Access> accesses, Where w) {
  if (accesses.empty()) accesses = std::move(pending_);
  pending_.clear();
  std::string text = "ExecuteIndirect";
  if (CommandSignature == IndirectKind::Draw) text += " draw";
  if (CommandSignature == IndirectKind::Dispatch) text += " dispatch";
  text += " args " + ArgumentBuffer.name;
  if (!accesses.empty()) text += ", " + accesses_text(accesses);
  add(std::move(text), w);
}
void CommandList::CopyBufferRegion(const Resource& DstBuffer, uint64_t, const Resource& SrcBuffer,
                                   uint64_t, uint64_t, Where w) {
  work("CopyBufferRegion", pfp_dma_ ? "[pfp]" : "",
       {Writes(DstBuffer, Kind::CopyDst), Reads(SrcBuffer, Kind::CopySrc)}, w);
}
void CommandList::CopyResource(const Resource& DstResource, const Resource& SrcResource, Where w) {
  work("CopyResource", pfp_dma_ ? "[pfp]" : "",
       {Writes(DstResource, Kind::CopyDst), Reads(SrcResource, Kind::CopySrc)}, w);
}
void CommandList::CopyTextureRegion(const Resource& Dst, uint32_t, uint32_t, uint32_t,
                                    const Resource& Src, Where w) {
  work("CopyTextureRegion", pfp_dma_ ? "[pfp]" : "",
       {Writes(Dst, Kind::CopyDst), Reads(Src, Kind::CopySrc)}, w);
}

// ---- CommandQueue ----

void CommandQueue::add(std::string text, Where w) {
  if (!label_.empty()) text = r_->impl_->name(label_, w, "command label") + ": " + text;
  label_.clear();
  r_->impl_->queues[index_].cmds.push_back({std::move(text), origin(w), ""});
}

void CommandQueue::ExecuteCommandLists(uint32_t NumCommandLists,
                                       CommandList* const* ppCommandLists) {
  r_->impl_->queues[index_].executions.insert(r_->impl_->queues[index_].cmds.size());
  for (uint32_t i = 0; i < NumCommandLists; ++i)
    for (const Command& c : ppCommandLists[i]->commands()) {
      r_->impl_->queues[index_].cmds.push_back(c);
      if (!c.problem.empty())
        r_->impl_->problems.push_back(
            {"error", c.origin.file, c.origin.line, c.origin.column, 0, c.problem});
    }
}
void CommandQueue::ExecuteCommandLists(std::initializer_list<CommandList*> lists) {
  ExecuteCommandLists(static_cast<uint32_t>(lists.size()), lists.begin());
}
void CommandQueue::Signal(const Fence& fence, uint64_t Value, Where w) {
  add(fmt::format("Signal({}, {})", fence.name, Value), w);
}
void CommandQueue::Wait(const Fence& fence, uint64_t Value, Where w) {
  add(fmt::format("Wait({}, {})", fence.name, Value), w);
}
void CommandQueue::Signal2X(const Fence& fence, uint64_t Value, uint32_t SyncFlags, Where w) {
  add(SyncFlags ? fmt::format("Signal2X({}, {}, {})", fence.name, Value, sync_text(SyncFlags))
                : fmt::format("Signal2X({}, {})", fence.name, Value),
      w);
}
void CommandQueue::WaitX(const Fence& fence, uint64_t Value, uint32_t SyncFlags, Where w) {
  add(SyncFlags ? fmt::format("WaitX({}, {}, {})", fence.name, Value, sync_text(SyncFlags))
                : fmt::format("WaitX({}, {})", fence.name, Value),
      w);
}
void CommandQueue::Label(std::string name) {
  label_ = std::move(name);
}
void CommandQueue::Host(std::vector<Access> accesses, Where w) {
  add("Host " + accesses_text(accesses), w);
}

// ---- Recorder ----

Recorder::Recorder(std::string title) : impl_(std::make_unique<Impl>()) {
  impl_->title = std::move(title);
}
Recorder::~Recorder() = default;

void Recorder::Profile(std::string name, Where w) {
  impl_->decls.push_back({"profile " + impl_->name(std::move(name), w, "profile"), origin(w), ""});
}
void Recorder::Assume(std::string choice, Where w) {
  const bool sign = !choice.empty() && (choice[0] == '+' || choice[0] == '-');
  std::string id = impl_->name(sign ? choice.substr(1) : choice, w, "assumption");
  impl_->decls.push_back(
      {fmt::format("assume {}{}", sign ? choice.substr(0, 1) : "+", id), origin(w), ""});
}
void Recorder::Target(std::string key, std::string value, Where w) {
  impl_->decls.push_back({fmt::format("target {} {}", impl_->name(std::move(key), w, "target"),
                                      impl_->name(std::move(value), w, "target value")),
                          origin(w), ""});
}

CommandQueue& Recorder::CreateCommandQueue(std::string name, QueueType type, Where w) {
  name = impl_->name(std::move(name), w, "queue");
  impl_->declare(name, name, "queue");
  const size_t index = impl_->add_queue(name, type, origin(w));
  impl_->handles.push_back(std::unique_ptr<CommandQueue>(new CommandQueue(this, index)));
  return *impl_->handles.back();
}

Resource Recorder::CreateBuffer(std::string name, uint64_t GpuVirtualAddress, uint64_t SizeInBytes,
                                Where w) {
  name = impl_->name(std::move(name), w, "buffer");
  impl_->declare(name, name, "resource");
  impl_->decls.push_back(
      {fmt::format("buffer {} 0x{:X} 0x{:X}", name, GpuVirtualAddress, SizeInBytes), origin(w),
       ""});
  return {name, GpuVirtualAddress, SizeInBytes};
}

Resource Recorder::CreateTexture(std::string name, uint64_t GpuVirtualAddress, uint64_t SizeInBytes,
                                 bool compressed, Where w) {
  name = impl_->name(std::move(name), w, "texture");
  impl_->declare(name, name, "resource");
  impl_->decls.push_back({fmt::format("texture {} 0x{:X} 0x{:X}{}", name, GpuVirtualAddress,
                                      SizeInBytes, compressed ? " compressed" : ""),
                          origin(w), ""});
  return {name, GpuVirtualAddress, SizeInBytes};
}

Fence Recorder::CreateFence(std::string name, Where w) {
  name = impl_->name(std::move(name), w, "fence");
  impl_->declare(name, name, "fence");
  impl_->decls.push_back({"fence " + name, origin(w), ""});
  return {name};
}

uint64_t Recorder::CreateLabel(std::string name, uint64_t GpuVirtualAddress, Where w) {
  name = impl_->name(std::move(name), w, "label");
  impl_->decls.push_back({fmt::format("label {} 0x{:X}", name, GpuVirtualAddress), origin(w), ""});
  impl_->labels.emplace(GpuVirtualAddress, name);
  return GpuVirtualAddress;
}

void Recorder::property(std::string verb, const Property& p, std::vector<std::string> missing,
                        Where w) {
  std::string text = verb + " " + impl_->name(p.kind, w, "property");
  if (!p.from.empty() || !p.to.empty())
    text += fmt::format(" {} -> {}", impl_->name(p.from, w, "command label"),
                        impl_->name(p.to, w, "command label"));
  if (!p.on.empty()) text += " on " + impl_->name(p.on, w, "resource");
  for (std::string& m : missing) m = impl_->name(m, w, "missing flag");
  if (!missing.empty()) text += fmt::format(" missing {}", fmt::join(missing, ", "));
  impl_->props.push_back({std::move(text), origin(w), ""});
}
void Recorder::Prove(Property p, Where w) {
  property("prove", p, {}, w);
}
void Recorder::Refute(Property p, std::vector<std::string> missing, Where w) {
  property("refute", p, std::move(missing), w);
}
void Recorder::Check(Property p, Where w) {
  property("check", p, {}, w);
}

std::string CaseText::text() const {
  std::string out;
  for (const std::string& l : lines) out += l + "\n";
  return out;
}

namespace {

// Destinations were written as "@HEX": a label's name when one has that address, else the number
// (which the linter warns about, as in a case file).
std::string resolve_destinations(std::string text, const std::map<uint64_t, std::string>& labels) {
  const size_t at = text.find('@');
  if (at == std::string::npos) return text;
  size_t end = at + 1;
  while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end]))) ++end;
  const uint64_t addr = std::stoull(text.substr(at + 1, end - at - 1), nullptr, 16);
  auto it = labels.find(addr);
  return text.substr(0, at) + (it != labels.end() ? it->second : fmt::format("0x{:X}", addr)) +
         text.substr(end);
}

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char ch : s) {
    if (ch == '"' || ch == '\\') out += '\\';
    out += static_cast<unsigned char>(ch) < 0x20 ? ' ' : ch;
  }
  return out + "\"";
}

}  // namespace

CaseText case_text(const Recorder& r) {
  const Recorder::Impl& im = *r.impl_;
  CaseText t;
  std::map<uint64_t, std::string> labels = im.labels;
  std::vector<Command> device_decls;
  if (im.device) device_decls = device_declarations(*im.device, labels);
  const auto resolve = [&](const std::string& text) {
    return im.device ? device_resolve(*im.device, text) : text;
  };
  const auto line = [&](std::string text, Origin o) {
    t.lines.push_back(std::move(text));
    t.origins.push_back(std::move(o));
  };
  line("# Recorded with syncproof::record (include/syncproof/record.h).", {});
  if (!im.title.empty()) line("case " + quoted(im.title), {});
  for (const Command& d : im.decls) line(d.text, d.origin);
  for (const Command& d : device_decls) line(d.text, d.origin);
  // One `on` block per ExecuteCommandLists (the state tracker's decay boundary).
  for (const auto& q : im.queues) {
    for (size_t i = 0; i < q.cmds.size(); ++i) {
      if (i == 0 || q.executions.count(i)) {
        line("", {});
        line(fmt::format("on {}:", q.name), {});
      }
      const Command& c = q.cmds[i];
      line("  " + resolve_destinations(resolve(c.text), labels), c.origin);
    }
  }
  if (!im.props.empty()) line("", {});
  for (const Command& p : im.props) line(p.text, p.origin);
  t.problems = im.problems;
  return t;
}

lang::ParseResult parse_recording(const Recorder& r) {
  return lang::parse_case("recording.sync", case_text(r).text());
}

std::string Recorder::CaseText() const {
  return case_text(*this).text();
}

}  // namespace syncproof::record
