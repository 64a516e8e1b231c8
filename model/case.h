#pragma once
// A parsed case file: declarations, per-queue command lists, properties. Plain data produced by
// lang/ (the parser) and consumed by model/lower (the lowering) and the CLI. Indices refer to the
// vectors of the owning Case.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "model/barrier.h"
#include "model/flags.h"
#include "model/validity.h"

namespace syncproof::model {

struct SrcLoc {
  uint32_t line = 0;  // 1-based; 0 = no location
  uint32_t col = 0;   // 1-based
};

enum class ResourceKind : uint8_t { Buffer, Texture };
struct Resource {
  std::string name;
  ResourceKind kind = ResourceKind::Buffer;
  uint64_t address = 0;
  uint64_t size = 0;
  bool compressed = false;  // textures only: has DCC/HTILE-style metadata
  SrcLoc loc;
  // `state STATES` / `layout LAYOUT` (d3d12.h values): the resource is state-tracked like the
  // debug layer does (lang/). Without either it is not.
  std::optional<uint32_t> state = {}, layout = {};
};

struct Fence {
  std::string name;
  SrcLoc loc;
};

// An 8-byte memory word written by Write*BitValueBottomOfPipe2X and polled by Wait*BitValueX.
struct Label {
  std::string name;
  uint64_t address = 0;
  SrcLoc loc;
};

enum class AccessKind : uint8_t {
  Srv,
  Cbv,
  Uav,
  Vertex,
  Index,
  Indirect,
  ShaderCode,
  Rt,
  Depth,
  CopySrc,
  CopyDst,
  Streamout,
  Host,
  Label,  // internal: the word a Write32/64BitValueBottomOfPipe2X writes (no case-language kind)
};
std::string_view to_string(AccessKind k);

// Where in the pipeline an access happens.
enum class Stage : uint8_t { Vs, Ps, Cs, Cp, Dma, Host };
std::string_view to_string(Stage s);

// What the case language allows of each access kind (docs/CASE-LANGUAGE.md): whether it can be
// read or written, whether a shader chooses its stage (vs/ps in draws, cs in dispatches), and
// otherwise the one stage it happens in.
bool can_read(AccessKind k);
bool can_write(AccessKind k);
bool shader_kind(AccessKind k);
Stage fixed_stage(AccessKind k);  // a kind that is not a shader kind (Ps for the others)

struct Access {
  bool write = false;
  AccessKind kind = AccessKind::Srv;
  uint32_t resource = 0;  // index into Case::resources
  Stage stage = Stage::Ps;
  SrcLoc loc;
};

enum class WorkKind : uint8_t {
  Draw,              // Draw / DrawIndexed / DrawInstanced...
  Dispatch,          // Dispatch and DispatchX
  IndirectDraw,      // ExecuteIndirect of draws (arguments read by the PFP)
  IndirectDispatch,  // ExecuteIndirect of dispatches
  Copy,              // a copy executed by the CP DMA engine
  Host,              // CPU reads/writes (host queue only)
};
std::string_view to_string(WorkKind k);

struct WorkCmd {
  WorkKind kind = WorkKind::Draw;
  std::string api;              // the spelling used: "Draw", "DispatchX", "CopyBufferRegion", ...
  uint32_t dispatch_flags = 0;  // DispatchX only
  bool has_dispatch_flags = false;  // DispatchX(...) was written
  bool wave32 = false;              // [wave32]: the shader is compiled for wave32
  bool pfp_dma = false;             // Copy issued on the PFP's CP DMA queue ([pfp])
  std::vector<Access> accesses;
};

// BaseAddress/SizeInBytes of a sync. `all` = BaseAddress 0 + D3D12XBOX_FLUSH_RANGE_ALL.
struct SyncRange {
  bool all = true;
  uint64_t base = 0;
  uint64_t size = 0;
};

struct SpelledMargins {  // whether a *_MARGIN name was written (vs. INVALIDATE|RANGE by OR)
  bool icache = false, gl1 = false, gl2 = false;
};

struct SyncCmd {  // SyncTopOfPipeX / SyncBottomOfPipeX
  SyncApi api = SyncApi::SyncTopOfPipeX;
  uint32_t flags = 0;
  ControlFlags control;
  SyncRange range;
  SpelledMargins spelled;
};

struct BopWriteCmd {  // Write32BitValueBottomOfPipe2X / Write64BitValueBottomOfPipe2X
  SyncApi api = SyncApi::Write64BitValueBottomOfPipe2X;
  std::optional<uint32_t> label;  // index into Case::labels, when Destination names one
  uint64_t address = 0;           // Destination
  uint64_t value = 0;
  uint32_t flags = 0;
  ControlFlags control;
  WriteValueSource source = WriteValueSource::Value;
};

enum class Comparison : uint8_t {
  Never,
  Less,
  Equal,
  LessEqual,
  Greater,
  NotEqual,
  GreaterEqual,
  Always,
};
std::string_view to_string(Comparison c);  // D3D12_COMPARISON_FUNC_* short name
bool compare(Comparison c, uint64_t lhs, uint64_t rhs);

struct WaitValueCmd {  // Wait32BitValueX / Wait64BitValueX
  bool is64 = true;
  std::optional<uint32_t> label;
  uint64_t address = 0;
  Comparison cmp = Comparison::GreaterEqual;
  uint64_t value = 0;
};

struct SignalCmd {  // Signal2X (xbox) or the standard ID3D12CommandQueue::Signal
  bool xbox = false;
  uint32_t fence = 0;
  uint64_t value = 0;
  uint32_t flags = 0;  // Signal2X's optional SyncFlags
};

struct WaitFenceCmd {  // WaitX (xbox) or the standard ID3D12CommandQueue::Wait
  bool xbox = false;
  uint32_t fence = 0;
  uint64_t value = 0;
  uint32_t flags = 0;  // WaitX's optional SyncFlags
};

using CommandBody =
    std::variant<WorkCmd, SyncCmd, BopWriteCmd, WaitValueCmd, SignalCmd, WaitFenceCmd, BarrierCmd>;

struct Command {
  std::string label;  // "" when the line has no `label:` prefix
  CommandBody body;
  SrcLoc loc;  // of the command name
};

struct Queue {
  std::string name;
  QueueType type = QueueType::Graphics;
  SrcLoc loc;
  std::vector<Command> commands;
};

enum class PropertyKind : uint8_t { Visible, Ordered, NoHazards, DeadlockFree };
std::string_view to_string(PropertyKind k);

enum class Expectation : uint8_t {
  Holds,     // `prove P`: P must be proved
  Violated,  // `refute P`: a counterexample must exist
  Report,    // `check P`: report only
};

struct Property {
  PropertyKind kind = PropertyKind::NoHazards;
  Expectation expect = Expectation::Holds;
  std::string from, to;              // command labels (Visible, Ordered)
  std::optional<uint32_t> resource;  // `on R`
  std::vector<std::string> missing;  // `refute ... missing FLAG`: the trace must blame these
  SrcLoc loc;
};

struct AssumptionChoice {
  bool enable = true;  // +ID / -ID
  std::string id;
  SrcLoc loc;
};

struct Case {
  std::string file;                // path as given
  std::vector<std::string> lines;  // source lines, for traces and carets
  std::string title;
  std::optional<std::string> profile;
  SrcLoc profile_loc;
  std::vector<AssumptionChoice> assumptions;
  std::optional<std::string> target;  // `target NAME` (model/targets.h)
  SrcLoc target_loc;
  std::vector<std::pair<std::string, std::string>> targets;  // `target KEY VALUE`
  std::vector<Resource> resources;
  std::vector<Fence> fences;
  std::vector<Label> labels;
  std::vector<Queue> queues;
  std::vector<Property> properties;
  // Whether some property is of kind `k`.
  bool asks(PropertyKind k) const {
    for (const Property& p : properties)
      if (p.kind == k) return true;
    return false;
  }
};

}  // namespace syncproof::model
