#include "tools/fuzz_gen.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <random>

#include "model/flags.h"
#include "model/validity.h"

namespace syncproof::cli {

using namespace model;

std::string FuzzCase::render() const {
  std::string out = fmt::format("case \"{}\"\n", title);
  for (const auto& h : header) out += h + "\n";
  for (const auto& q : queues) out += fmt::format("queue {} {}\n", q.name, q.type);
  for (const auto& d : decls) out += d + "\n";
  for (const auto& q : queues) {
    if (q.commands.empty()) continue;
    out += fmt::format("\non {}:\n", q.name);
    for (const auto& c : q.commands) out += "  " + c + "\n";
  }
  out += "\n";
  for (const auto& p : props) out += p + "\n";
  return out;
}

namespace {

struct Res {
  std::string name;
  uint64_t addr, size;
  bool texture;
};

struct Work {  // a labelled work command, for properties
  std::string label;
  std::vector<int> reads, writes;  // resource indices
};

class Gen {
 public:
  Gen(uint64_t seed, const FuzzShape& shape)
      : rng_(seed),
        brng_(seed ^ 0x9E3779B97F4A7C15ull),
        arng_(seed ^ 0xD1B54A32D192ED03ull),
        frng_(seed ^ 0x94D049BB133111EBull),
        shape_(shape) {
    fc_.seed = seed;
  }
  FuzzCase run();

 private:
  int pick(int n) { return static_cast<int>(rng_() % static_cast<uint64_t>(n)); }
  bool coin(int percent) { return pick(100) < percent; }
  std::string sync_flags(SyncApi api, QueueType q, bool allow_empty);
  std::string range_args();
  std::string control(SyncApi api, QueueType q);
  std::string access(bool draw, bool write, Work& w);
  std::string work(QueueType q);
  std::string command(QueueType q);
  std::string near_complete(SyncApi api, QueueType q, std::initializer_list<const char*> flags);
  int pattern(int qi, int room);
  void properties();
  // A deliberate lint error, at most one per case and only in the cases chosen for one.
  bool inject(int percent);
  std::string fence_wait(bool extended, QueueType q);
  std::string fence_signal(bool extended, QueueType q);
  std::string label_write(QueueType q);
  std::string label_wait();
  // A standard barrier (ResourceBarrier or Barrier) on queue qi, or the END half of a split one
  // begun there. Drawn from a stream of its own, so the rest of a seed's case is what it was
  // before standard barriers were generated.
  std::string standard_barrier(int qi, QueueType q);
  int bpick(int n) { return static_cast<int>(brng_() % static_cast<uint64_t>(n)); }
  bool bcoin(int percent) { return bpick(100) < percent; }

  // Aliases of part of the texture (alias_): drawn from a stream of their own, so the rest of a
  // seed's case is what it was before they were generated.
  int apick(int n) { return static_cast<int>(arng_() % static_cast<uint64_t>(n)); }
  bool acoin(int percent) { return apick(100) < percent; }

  // The shape of a render back-end fill of part of a texture (fill_pattern), on textures of its
  // own (fill0, and fill0part over its second block), at most once a case: drawn from a stream of
  // its own too. The commands it adds take room from the rest.
  bool fcoin(int percent) { return static_cast<int>(frng_() % 100) < percent; }
  int fill_pattern();

  std::mt19937_64 rng_, brng_, arng_, frng_;
  std::optional<Res> alias_;              // a texture over some 256-byte blocks of t0
  bool fill_ = false;                     // fill0 and fill0part are declared
  std::optional<std::string> fill_prop_;  // fill_pattern's property
  std::vector<std::string> open_split_;   // per queue: the END half of a split begun there
  int open_splits() const {
    int n = 0;
    for (const auto& s : open_split_) n += s.empty() ? 0 : 1;
    return n;
  }
  FuzzShape shape_;
  FuzzCase fc_;
  std::vector<Res> res_;
  std::vector<Work> work_;
  int fences_ = 0, labels_ = 0, next_label_ = 0;
  // Commands are generated in one global order that is itself an execution: a wait is only
  // generated for a value that an earlier signal or label write gives (values grow), so no wait
  // blocks for ever and the case has a complete execution (it is not vacuous) unless a deadlock
  // is put in on purpose (deadlock_).
  std::vector<uint64_t> fence_max_;                  // highest value signalled so far
  std::vector<std::vector<uint64_t>> label_values_;  // values written so far
  bool want_invalid_ = false, deadlock_ = false;
};

bool Gen::inject(int percent) {
  if (!want_invalid_ || fc_.expect_lint_error || !coin(percent)) return false;
  fc_.expect_lint_error = true;
  return true;
}

std::string Gen::fence_signal(bool extended, QueueType q) {
  const int f = pick(fences_);
  const uint64_t v = ++fence_max_[f];
  if (!extended) return fmt::format("Signal(f{}, {})", f, v);
  std::string flags = coin(50) ? "" : ", " + sync_flags(SyncApi::Signal2X, q, false);
  return fmt::format("Signal2X(f{}, {}{})", f, v, flags);
}

// A wait for a value some earlier signal gave (empty when no fence was signalled yet).
std::string Gen::fence_wait(bool extended, QueueType q) {
  std::vector<int> signalled;
  for (int f = 0; f < fences_; ++f)
    if (fence_max_[f] > 0) signalled.push_back(f);
  if (signalled.empty()) return "";
  const int f = signalled[pick(static_cast<int>(signalled.size()))];
  const uint64_t v = 1 + static_cast<uint64_t>(pick(static_cast<int>(fence_max_[f])));
  if (!extended) return fmt::format("Wait(f{}, {})", f, v);
  std::string flags = coin(50) ? "" : ", " + sync_flags(SyncApi::WaitX, q, false);
  return fmt::format("WaitX(f{}, {}{})", f, v, flags);
}

std::string Gen::label_write(QueueType q) {
  const int l = pick(labels_);
  auto& vals = label_values_[l];
  const uint64_t v = vals.empty() ? 1 : vals.back() + 1;
  vals.push_back(v);
  const bool is64 = coin(70);
  SyncApi api =
      is64 ? SyncApi::Write64BitValueBottomOfPipe2X : SyncApi::Write32BitValueBottomOfPipe2X;
  return fmt::format("Write{}BitValueBottomOfPipe2X(l{}, {}, {}, {}, NONE)", is64 ? 64 : 32, l, v,
                     sync_flags(api, q, true), control(api, q));
}

// A label wait that an earlier write satisfies (empty when no label was written yet).
std::string Gen::label_wait() {
  std::vector<int> written;
  for (int l = 0; l < labels_; ++l)
    if (!label_values_[l].empty()) written.push_back(l);
  if (written.empty()) return "";
  const int l = written[pick(static_cast<int>(written.size()))];
  const auto& vals = label_values_[l];
  // Values only grow, so GREATER_EQUAL, GREATER and NOT_EQUAL stay satisfied once w was written;
  // EQUAL and LESS hold only until a larger value lands, so they wait for the latest value
  // written so far: the generation order, each write landing at once, is then a complete
  // execution. (An older value let a queue wait for 1 after writing 3 itself: fuzz seed 1000390.)
  const int kind = pick(5);
  const bool latest = kind == 1 || kind == 4;
  const uint64_t w = latest ? vals.back() : vals[pick(static_cast<int>(vals.size()))];
  std::string cmp;
  uint64_t v = w;
  switch (kind) {  // each satisfied by the value w
    case 0:
      cmp = "GREATER_EQUAL";
      break;
    case 1:
      cmp = "EQUAL";
      break;
    case 2:
      cmp = "NOT_EQUAL", v = w + 1000;
      break;
    case 3:
      cmp = "GREATER", v = w - 1;
      break;
    default:
      cmp = "LESS", v = w + 1;
      break;
  }
  return fmt::format("Wait{}BitValueX(l{}, {}, {})", coin(70) ? 64 : 32, l, cmp, v);
}

std::string Gen::sync_flags(SyncApi api, QueueType q, bool allow_empty) {
  const uint32_t accepted = accepted_sync_flags(api, q);
  std::vector<std::string_view> ok, bad;
  for (const FlagDef& d : all_flags()) {
    if (d.family != FlagFamily::Sync || !d.value || *d.value == 0) continue;
    if (d.kind != FlagKind::Bit && d.kind != FlagKind::Field) continue;
    std::string_view name = d.name.substr(family_prefix(FlagFamily::Sync).size());
    ((*d.value & ~accepted) == 0 ? ok : bad).push_back(name);
  }
  std::vector<std::string_view> chosen;
  int n = allow_empty ? pick(5) : 1 + pick(4);
  for (int i = 0; i < n && !ok.empty(); ++i) {
    std::string_view f = ok[pick(static_cast<int>(ok.size()))];
    if (std::find(chosen.begin(), chosen.end(), f) == chosen.end()) chosen.push_back(f);
  }
  if (!bad.empty() && inject(30)) chosen.push_back(bad[pick(static_cast<int>(bad.size()))]);
  if (chosen.empty()) return "NONE";
  return fmt::format("{}", fmt::join(chosen, " | "));
}

std::string Gen::range_args() {
  int k = pick(10);
  if (k < 7 || res_.empty()) return "0, D3D12XBOX_FLUSH_RANGE_ALL";
  const Res& r = res_[pick(static_cast<int>(res_.size()))];
  if (k < 8) return fmt::format("{0}, {0}", r.name);
  static const uint64_t kSizes[] = {0x40, 0x80, 0xC0, 0x100, 0x1000};
  uint64_t off = 0x40 * static_cast<uint64_t>(pick(8));
  return fmt::format("0x{:X}, 0x{:X}", r.addr + off, kSizes[pick(5)]);
}

std::string Gen::control(SyncApi api, QueueType q) {
  if (!coin(25)) return "NONE";
  std::vector<std::string_view> names;
  if (is_bop_write(api)) {
    names = {"GCR_SEQUENCE_FORWARD", "GCR_SEQUENCE_REVERSE"};
  } else if (q == QueueType::Graphics || inject(30)) {  // PFP selections: errors elsewhere
    names = {"IDLE_SELECT_ENGINE_PFP", "CPDMA_SELECT_ENGINE_PFP"};
    if (api == SyncApi::SyncTopOfPipeX) names.push_back("TOP_SELECT_ENGINE_PFP");
  }
  if (names.empty()) return "NONE";
  return std::string(names[pick(static_cast<int>(names.size()))]);
}

std::string Gen::access(bool draw, bool write, Work& w) {
  int ri = pick(static_cast<int>(res_.size()));
  // An access of t0 may be one of its alias: it touches only some of t0's blocks, so a later
  // access of t0 meets a render back-end fill, a write or a write-back range on part of its bytes.
  const Res& r = alias_ && res_[ri].texture && acoin(40) ? *alias_ : res_[ri];
  (write ? w.writes : w.reads).push_back(ri);
  if (write) {
    if (draw && r.texture && coin(50))
      return fmt::format("writes {} as {}", r.name, coin(70) ? "rt" : "depth");
    if (draw && coin(15)) return fmt::format("writes {} as streamout", r.name);
    return fmt::format("writes {} as uav{}", r.name, draw ? (coin(50) ? " in vs" : " in ps") : "");
  }
  static const char* kShader[] = {"srv", "cbv", "uav", "shader-code"};
  if (draw && coin(30)) {
    static const char* kDrawOnly[] = {"vertex", "index", "rt", "depth"};
    const char* k = kDrawOnly[pick(r.texture ? 4 : 2)];
    return fmt::format("reads {} as {}", r.name, k);
  }
  return fmt::format("reads {} as {}{}", r.name, kShader[pick(4)],
                     draw ? (coin(50) ? " in vs" : " in ps") : "");
}

std::string Gen::work(QueueType q) {
  Work w;
  w.label = fmt::format("c{}", next_label_++);
  std::string body;
  if (q == QueueType::Host) {
    body = "Host " + access(false, coin(50), w);
    body.replace(body.find(" as ") + 4, std::string::npos, "host");
  } else if (coin(20)) {  // a CP DMA copy
    const bool pfp = q == QueueType::Graphics && coin(30);
    int src = pick(static_cast<int>(res_.size())), dst = pick(static_cast<int>(res_.size()));
    w.reads.push_back(src), w.writes.push_back(dst);
    body = fmt::format("CopyBufferRegion{} reads {} as copy-src, writes {} as copy-dst",
                       pfp ? " [pfp]" : "", res_[src].name, res_[dst].name);
  } else {
    const bool draw = q == QueueType::Graphics && coin(55);
    std::string head = draw ? "Draw" : "Dispatch";
    if (coin(12)) {
      int a = pick(static_cast<int>(res_.size()));
      w.reads.push_back(a);
      head = fmt::format("ExecuteIndirect{} args {},", draw ? " draw" : " dispatch", res_[a].name);
    } else if (!draw && coin(20)) {
      uint32_t f = coin(50) ? dispatch::kInvalidateVolatileVectorL1 : dispatch::kForceStartAt000;
      if (q == QueueType::Compute ? coin(5) : inject(30))  // for compute queues only
        f = dispatch::kEnableOutOfOrder;
      head = fmt::format("DispatchX(0x{:X})", f);
    }
    std::vector<std::string> acc;
    for (int i = 0, n = 1 + pick(3); i < n; ++i) acc.push_back(access(draw, coin(45), w));
    body = fmt::format("{} {}", head, fmt::join(acc, ", "));
  }
  work_.push_back(w);
  return w.label + ": " + body;
}

std::string Gen::command(QueueType q) {
  const int k = pick(100);
  if (q == QueueType::Host) {
    if (k >= 45 && fences_ > 0) {
      std::string w = coin(50) ? fence_wait(false, q) : "";
      return w.empty() ? fence_signal(false, q) : w;
    }
    return work(q);
  }
  if (k < 45) return work(q);
  if (k < 60)
    return fmt::format("SyncBottomOfPipeX({}, {}, {})",
                       sync_flags(SyncApi::SyncBottomOfPipeX, q, false),
                       control(SyncApi::SyncBottomOfPipeX, q), range_args());
  if (k < 73)
    return fmt::format("SyncTopOfPipeX({}, {}, {})", sync_flags(SyncApi::SyncTopOfPipeX, q, false),
                       control(SyncApi::SyncTopOfPipeX, q), range_args());
  if (k < 80 && labels_ > 0) return label_write(q);
  if (k < 86 && labels_ > 0)
    if (std::string w = label_wait(); !w.empty()) return w;
  if (k < 93 && fences_ > 0) return fence_signal(coin(50), q);
  if (fences_ > 0)
    if (std::string w = fence_wait(coin(50), q); !w.empty()) return w;
  return work(q);
}

// A flag word a careful engineer would write for `api` on `q`, with each flag dropped now and
// then: the near misses where the engines must reason precisely.
std::string Gen::near_complete(SyncApi api, QueueType q, std::initializer_list<const char*> flags) {
  const uint32_t accepted = accepted_sync_flags(api, q);
  std::vector<std::string_view> kept;
  for (const char* f : flags) {
    const FlagDef* d = find_flag(FlagFamily::Sync, f);
    if (d && d->value && (*d->value & ~accepted) == 0 && !coin(15)) kept.push_back(f);
  }
  return kept.empty() ? "NONE" : fmt::format("{}", fmt::join(kept, " | "));
}

// A synchronization pattern (barrier, label or fence hand-off to another queue) of at most `room`
// commands; returns the number of commands it added (0: none, the pattern drawn needs more room).
// Every random choice is drawn before the room is looked at, so a case with room for its patterns
// is the one its seed always gave.
int Gen::pattern(int qi, int room) {
  auto type = [&](int i) {
    const std::string& t = fc_.queues[i].type;
    return t == "graphics"  ? QueueType::Graphics
           : t == "compute" ? QueueType::Compute
                            : QueueType::Host;
  };
  const QueueType q = type(qi);
  if (q == QueueType::Host) return 0;
  auto& cmds = fc_.queues[qi].commands;
  const std::string all = "0, D3D12XBOX_FLUSH_RANGE_ALL";
  const std::string top = near_complete(SyncApi::SyncTopOfPipeX, q,
                                        {"VCACHE_INVALIDATE", "GL1_INVALIDATE", "KCACHE_INVALIDATE",
                                         "MCACHE_INVALIDATE", "PFP_SYNC_ME"});
  int other = pick(static_cast<int>(fc_.queues.size()));
  const bool cross = other != qi && type(other) != QueueType::Host;
  const int k = pick(3);
  if (!cross || k == 0) {
    std::string bop = fmt::format(
        "SyncBottomOfPipeX({}, NONE, {})",
        near_complete(SyncApi::SyncBottomOfPipeX, q,
                      {"CS_PARTIAL_FLUSH", "PS_PARTIAL_FLUSH", "VS_PARTIAL_FLUSH", "SYNC_CPDMA",
                       "COLOR_BLOCK_DATA_FLUSH", "DEPTH_BLOCK_DATA_FLUSH", "COLOR_BLOCK_META_FLUSH",
                       "STREAMOUT_FLUSH", "GL2_WRITEBACK", "IDLE"}),
        coin(80) ? all : range_args());
    std::string top_of_pipe =
        fmt::format("SyncTopOfPipeX({}, NONE, {})", top, coin(80) ? all : range_args());
    if (room < 2) return 0;
    cmds.push_back(std::move(bop));
    cmds.push_back(std::move(top_of_pipe));
    return 2;
  }
  auto& dst = fc_.queues[other].commands;
  const QueueType qo = type(other);
  const std::string topo = near_complete(SyncApi::SyncTopOfPipeX, qo,
                                         {"VCACHE_INVALIDATE", "GL1_INVALIDATE",
                                          "KCACHE_INVALIDATE", "GL2_INVALIDATE", "PFP_SYNC_ME"});
  if (k == 1 && labels_ > 0) {
    const int l = pick(labels_);
    const std::string wf = near_complete(SyncApi::Write64BitValueBottomOfPipe2X, q,
                                         {"GL2_WRITEBACK", "GL2_INVALIDATE", "VCACHE_INVALIDATE"});
    std::string bop;
    if (coin(50))
      bop = fmt::format("SyncBottomOfPipeX({}, NONE, {})",
                        near_complete(SyncApi::SyncBottomOfPipeX, q,
                                      {"CS_PARTIAL_FLUSH", "COLOR_BLOCK_DATA_FLUSH",
                                       "GL2_WRITEBACK", "GL2_INVALIDATE", "IDLE"}),
                        all);
    const int added = bop.empty() ? 3 : 4;
    if (room < added) return 0;
    if (!bop.empty()) cmds.push_back(std::move(bop));
    auto& vals = label_values_[l];
    const uint64_t v = vals.empty() ? 1 : vals.back() + 1;
    vals.push_back(v);
    cmds.push_back(fmt::format("Write64BitValueBottomOfPipe2X(l{}, {}, {}, NONE, NONE)", l, v, wf));
    dst.push_back(fmt::format("Wait64BitValueX(l{}, GREATER_EQUAL, {})", l, v));
    dst.push_back(fmt::format("SyncTopOfPipeX({}, NONE, {})", topo, all));
    return added;
  }
  if (fences_ == 0 || room < 2) return 0;
  const int f = pick(fences_);
  const uint64_t v = ++fence_max_[f];
  if (coin(50)) {
    cmds.push_back(fmt::format("Signal(f{}, {})", f, v));
    dst.push_back(fmt::format("Wait(f{}, {})", f, v));
    return 2;
  }
  cmds.push_back(fmt::format(
      "Signal2X(f{}, {}, {})", f, v,
      near_complete(SyncApi::Signal2X, q,
                    {"CS_PARTIAL_FLUSH", "COLOR_BLOCK_DATA_FLUSH", "GL2_WRITEBACK", "IDLE"})));
  dst.push_back(
      fmt::format("WaitX(f{}, {}, {})", f, v,
                  near_complete(SyncApi::WaitX, qo, {"VCACHE_INVALIDATE", "GL1_INVALIDATE"})));
  return 2;
}

namespace {

// How a resource is used on one side of a barrier: its sync scope, access, legacy state and
// layout, as d3d12.h spells them (short names), and where it may be.
struct Use {
  const char *sync, *access, *state, *layout;
  bool graphics_only, texture_only;
};
constexpr Use kUses[] = {
    {"COMPUTE_SHADING", "UNORDERED_ACCESS", "UNORDERED_ACCESS", "UNORDERED_ACCESS", false, false},
    {"ALL_SHADING", "UNORDERED_ACCESS", "UNORDERED_ACCESS", "UNORDERED_ACCESS", false, false},
    {"NON_PIXEL_SHADING", "SHADER_RESOURCE", "NON_PIXEL_SHADER_RESOURCE", "SHADER_RESOURCE", false,
     false},
    {"PIXEL_SHADING", "SHADER_RESOURCE", "PIXEL_SHADER_RESOURCE", "SHADER_RESOURCE", true, false},
    {"RENDER_TARGET", "RENDER_TARGET", "RENDER_TARGET", "RENDER_TARGET", true, true},
    {"DEPTH_STENCIL", "DEPTH_STENCIL_WRITE", "DEPTH_WRITE", "DEPTH_STENCIL_WRITE", true, true},
    {"COPY", "COPY_DEST", "COPY_DEST", "COPY_DEST", false, false},
    {"COPY", "COPY_SOURCE", "COPY_SOURCE", "COPY_SOURCE", false, false},
    {"INDEX_INPUT", "INDEX_BUFFER", "INDEX_BUFFER", "COMMON", true, false},
    {"EXECUTE_INDIRECT", "INDIRECT_ARGUMENT", "INDIRECT_ARGUMENT", "COMMON", false, false},
    {"ALL", "COMMON", "COMMON", "COMMON", false, false},
    {"NONE", "NO_ACCESS", "COMMON", "UNDEFINED", false, false},
};

}  // namespace

std::string Gen::standard_barrier(int qi, QueueType q) {
  if (open_split_.size() < fc_.queues.size()) open_split_.resize(fc_.queues.size());
  if (!open_split_[qi].empty()) {
    std::string end = std::move(open_split_[qi]);
    open_split_[qi].clear();
    return end;
  }
  const int ri = bpick(static_cast<int>(res_.size()));
  const Res& r = res_[ri];
  auto use = [&](bool before) {
    while (true) {
      const Use& u = kUses[bpick(static_cast<int>(std::size(kUses)))];
      const bool none = std::string_view(u.sync) == "NONE";
      const bool common = std::string_view(u.access) == "COMMON";
      if ((u.graphics_only && q != QueueType::Graphics) || (u.texture_only && !r.texture)) continue;
      if (before && common) continue;  // ACCESS_BEFORE COMMON: a lint warning
      if (r.texture && std::string_view(u.layout) == "COMMON" && !common)
        continue;  // index and indirect reads: buffers only (no layout allows them)
      if (none && r.texture) continue;  // NONE's layout UNDEFINED only where DISCARD goes
      return u;
    }
  };
  const Use b = use(true), a = use(false);
  const int form = bpick(q == QueueType::Graphics ? 8 : 7);
  switch (form) {
    case 0: {  // a transition, now and then split
      if (std::string_view(b.state) == a.state)
        return fmt::format("ResourceBarrier(UAV, {})", r.name);
      const std::string head =
          fmt::format("ResourceBarrier(TRANSITION, {}, {}, {}", r.name, b.state, a.state);
      if (bcoin(25)) {
        open_split_[qi] = head + ", END_ONLY)";
        return head + ", BEGIN_ONLY)";
      }
      return head + ")";
    }
    case 1:
      return fmt::format("ResourceBarrier(UAV, {})", bcoin(30) ? "NULL" : r.name);
    case 2: {
      const Res& o = res_[bpick(static_cast<int>(res_.size()))];
      return fmt::format("ResourceBarrier(ALIASING, {}, {})", bcoin(20) ? "NULL" : r.name,
                         bcoin(20) ? "NULL" : o.name);
    }
    case 3:
      return fmt::format("Barrier(GLOBAL, {}, {}, {}, {})", b.sync, a.sync, b.access, a.access);
    default: {
      std::string args =
          fmt::format("{}, {}, {}, {}, {}", r.name, b.sync, a.sync, b.access, a.access);
      std::string tail;
      if (r.texture) {
        const char* lb = b.layout;
        if (std::string_view(a.access) == "COMMON")
          tail = fmt::format(", {}, COMMON", lb);
        else
          tail = fmt::format(", {}, {}", lb, a.layout);
      }
      const char* type = r.texture ? "TEXTURE" : "BUFFER";
      if (bcoin(20) && std::string_view(b.sync) != "NONE" && std::string_view(a.sync) != "NONE") {
        // An enhanced split barrier: SYNC_AFTER SPLIT begins it, SYNC_BEFORE SPLIT ends it.
        const std::string acc = fmt::format("{}, {}{}", b.access, a.access, tail);
        open_split_[qi] = fmt::format("Barrier({}, {}, SPLIT, {}, {})", type, r.name, a.sync, acc);
        return fmt::format("Barrier({}, {}, {}, SPLIT, {})", type, r.name, b.sync, acc);
      }
      return fmt::format("Barrier({}, {}{})", type, args, tail);
    }
  }
}

// A draw fills the render back-end's cache with the second 256-byte block of fill0 (through
// fill0part); a dispatch then rewrites both blocks through GL2, a barrier writes GL2 back and
// invalidates it, and a draw reads fill0 through the render back-end again. Without
// COLOR_BLOCK_INVALIDATE the filled block is stale there and the other is not
// (cases/render-targets/rb-fill-of-one-block.sync: the executor once checked only the first
// unit of such a read, and proved it). On the graphics queue, q0; with the invalidation half the
// time. fill0 is not among res_ (the other accesses do not pick it): its works name it by index -1.
int Gen::fill_pattern() {
  auto& cmds = fc_.queues[0].commands;
  auto add_work = [&](const std::string& body, bool write) {
    Work w;
    w.label = fmt::format("c{}", next_label_++);
    (write ? w.writes : w.reads).push_back(-1);
    cmds.push_back(w.label + ": " + body);
    work_.push_back(w);
    return w.label;
  };
  const std::string all = "0, D3D12XBOX_FLUSH_RANGE_ALL";
  add_work("Draw reads fill0part as rt", false);
  cmds.push_back(fmt::format("SyncBottomOfPipeX(IDLE, NONE, {})", all));
  const std::string produce = add_work("Dispatch writes fill0 as uav", true);
  cmds.push_back(fmt::format("SyncBottomOfPipeX(CS_PARTIAL_FLUSH, NONE, {})", all));
  cmds.push_back(fmt::format("SyncTopOfPipeX(GL2_WRITEBACK | GL2_INVALIDATE{}, NONE, {})",
                             fcoin(50) ? " | COLOR_BLOCK_INVALIDATE" : "", all));
  const std::string blend = add_work("Draw reads fill0 as rt", false);
  fill_prop_ = fmt::format("check visible {} -> {}", produce, blend);
  return 6;
}

void Gen::properties() {
  auto verb = [] { return std::string("check"); };
  if (deadlock_) {
    fc_.props.push_back(verb() + " deadlock-free");
    return;
  }
  if (fill_prop_) fc_.props.push_back(*fill_prop_);
  for (int i = 0, n = pick(3); i < n && !work_.empty(); ++i) {
    const Work& a = work_[pick(static_cast<int>(work_.size()))];
    std::vector<const Work*> readers;
    for (const Work& b : work_)
      for (int w : a.writes)
        if (&b != &a && std::find(b.reads.begin(), b.reads.end(), w) != b.reads.end())
          readers.push_back(&b);
    if (!readers.empty() && coin(70))
      fc_.props.push_back(fmt::format("{} visible {} -> {}", verb(), a.label,
                                      readers[pick(static_cast<int>(readers.size()))]->label));
    else if (work_.size() > 1) {
      const Work* b = &work_[pick(static_cast<int>(work_.size()))];
      if (b == &a) b = &work_[(static_cast<size_t>(b - work_.data()) + 1) % work_.size()];
      fc_.props.push_back(fmt::format("{} ordered {} -> {}", verb(), a.label, b->label));
    }
  }
  fc_.props.push_back(verb() + " no-hazards");
  fc_.props.push_back(verb() + " deadlock-free");
}

FuzzCase Gen::run() {
  fc_.title = fmt::format("fuzz seed {}", fc_.seed);
  want_invalid_ = coin(10);
  if (coin(30)) fc_.header.push_back(coin(50) ? "profile strict" : "profile rdna2");
  if (coin(25)) {
    static const char* kIds[] = {"A-WAVE-END-STORES-IN-GL2",  "A-IDLE-DRAINS-WRITES",
                                 "A-GCR-OUTER-FIRST",         "A-BOP-FIFO",
                                 "A-BOP-WRITE-AFTER-OWN-GCR", "A-STD-FENCE-COHERENT",
                                 "A-SIGNAL2X-FULL-FLUSH",     "A-INITIAL-ZERO",
                                 "A-WAITX-FLAGS-AFTER-WAIT"};
    fc_.header.push_back(fmt::format("assume {}{}", coin(50) ? "+" : "-", kIds[pick(9)]));
  }
  if (coin(30))
    fc_.header.push_back(coin(50) ? "target gl2-rb-coherent yes" : "target gl2-rb-coherent no");
  const int nq = 1 + pick(std::max(1, shape_.queues));
  for (int q = 0; q < nq; ++q) {
    const char* type = q == 0 ? "graphics" : coin(15) ? "host" : coin(70) ? "compute" : "graphics";
    fc_.queues.push_back({fmt::format("q{}", q), type, {}});
  }
  for (int i = 0, n = 1 + pick(3); i < n; ++i)
    res_.push_back({fmt::format("b{}", i), 0x10000u * (i + 1), coin(50) ? 0x1000u : 0x100u, false});
  if (coin(60)) res_.push_back({"t0", 0x100000, 0x10000, true});
  for (const Res& r : res_)
    fc_.decls.push_back(fmt::format("{} {} 0x{:X} 0x{:X}{}", r.texture ? "texture" : "buffer",
                                    r.name, r.addr, r.size,
                                    r.texture && coin(40) ? " compressed" : ""));
  if (!res_.empty() && res_.back().texture && acoin(40)) {
    const Res& t = res_.back();
    alias_ = Res{"t0part", t.addr + 0x100 * static_cast<uint64_t>(1 + apick(3)),
                 0x100 * static_cast<uint64_t>(1 + apick(2)), true};
    fc_.decls.push_back(
        fmt::format("texture {} 0x{:X} 0x{:X}", alias_->name, alias_->addr, alias_->size));
  }
  if (fcoin(20)) {
    fill_ = true;
    fc_.decls.push_back("texture fill0 0x200000 0x200");
    fc_.decls.push_back("texture fill0part 0x200100 0x100");
  }
  fences_ = pick(3), labels_ = pick(3);
  fence_max_.assign(static_cast<size_t>(fences_), 0);
  label_values_.assign(static_cast<size_t>(labels_), {});
  for (int i = 0; i < fences_; ++i) fc_.decls.push_back(fmt::format("fence f{}", i));
  for (int i = 0; i < labels_; ++i)
    fc_.decls.push_back(fmt::format("label l{} 0x{:X}", i, 0x300000 + 8 * i));
  const int total = 1 + pick(std::max(1, shape_.max_commands));
  for (int i = 0; i + open_splits() < total; ++i) {  // room kept for the END halves
    if (fill_ && !fill_prop_ && fcoin(10) && i + 6 + open_splits() <= total) {
      i += fill_pattern() - 1;
      continue;
    }
    const int qi = pick(nq);
    if (coin(30)) {
      if (int added = pattern(qi, total - i - open_splits())) {
        i += added - 1;
        continue;
      }
    }
    FuzzQueue& q = fc_.queues[qi];
    QueueType t = q.type == "graphics"  ? QueueType::Graphics
                  : q.type == "compute" ? QueueType::Compute
                                        : QueueType::Host;
    q.commands.push_back(command(t));
    // A standard barrier only where the shape has room for it and for the END half of a split
    // it may begin (the END halves still open are put in at the end, within `total`).
    if (t != QueueType::Host && bcoin(15) && i + 3 + open_splits() <= total) {
      q.commands.push_back(standard_barrier(qi, t));
      ++i;
    }
  }
  for (size_t qi = 0; qi < open_split_.size(); ++qi)  // every split barrier begun is ended
    if (!open_split_[qi].empty()) fc_.queues[qi].commands.push_back(open_split_[qi]);
  // Now and then a wait no signal satisfies: the case deadlocks, and deadlock-free is its only
  // property (every other one would be vacuous). Only where the shape has room for it.
  if (fences_ > 0 && coin(5) && total < shape_.max_commands) {
    const int qi = pick(nq), f = pick(fences_);
    fc_.queues[qi].commands.push_back(fmt::format("Wait(f{}, {})", f, fence_max_[f] + 1));
    deadlock_ = true;
  }
  properties();
  return fc_;
}

}  // namespace

FuzzCase generate_case(uint64_t seed, const FuzzShape& shape) {
  return Gen(seed, shape).run();
}

}  // namespace syncproof::cli
