#pragma once
// syncproof's recording API: run an engine's real barrier code against a recorder in a unit test
// and have syncproof prove (or refute) what it must guarantee.
//
// The methods mirror ID3D12GraphicsCommandList6 (with the Xbox extensions of d3d12_xs.h) and
// ID3D12CommandQueue by name and argument order, so barrier code written as a template over its
// command list (or behind the engine's own interface) runs unchanged against CommandList and
// CommandQueue. Work commands take the accesses the real call implies (the resources its root
// signature binds) as a trailing argument, or from SetAccesses() before the call. Every call
// remembers where it was made (file, line, column): diagnostics point at the engine's code.
//
// Recorder::Verify() writes the recording as a case file (CaseText(): the equivalent `*.sync`,
// docs/CASE-LANGUAGE.md), lints it with the case-language linter and checks it with the SMT
// engine, so a recording gets exactly the verdicts, traces and diagnostics of that case file.
//
// Only the standard library is needed to include this header; link syncproof::syncproof
// (find_package(syncproof)).
#include <cstdint>
#include <initializer_list>
#include <memory>
#if defined(__has_include)
#if __has_include(<source_location>)
#include <source_location>
#endif
#endif
#include <string>
#include <vector>

struct ID3D12Device;  // <syncproof/d3d12_xs.h> (the public d3d12.h)

namespace syncproof::record {

// ---- constants, as d3d12_xs.h and d3d12.h name them ----
// D3D12XBOX_SYNC_FLAGS and D3D12XBOX_DISPATCH_FLAGS carry the seeds' published values (checked
// against syncproof's flag catalogue when the library is built). Sync control flags and the
// timestamp write flags have no published values: the numbers below are syncproof's own, so pass
// these constants, not the SDK's.
namespace d3d12 {
inline constexpr uint32_t D3D12XBOX_SYNC_FLAG_NONE = 0x0,
                          D3D12XBOX_SYNC_FLAG_ICACHE_INVALIDATE = 0x1,
                          D3D12XBOX_SYNC_FLAG_ICACHE_RANGE = 0x2,
                          D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN = 0x3,
                          D3D12XBOX_SYNC_FLAG_GL1_RANGE = 0x8, D3D12XBOX_SYNC_FLAG_GL1_MARGIN = 0xC,
                          D3D12XBOX_SYNC_FLAG_MCACHE_WRITEBACK = 0x10,
                          D3D12XBOX_SYNC_FLAG_MCACHE_INVALIDATE = 0x20,
                          D3D12XBOX_SYNC_FLAG_PFP_SYNC_ME = 0x40,
                          D3D12XBOX_SYNC_FLAG_KCACHE_INVALIDATE = 0x80,
                          D3D12XBOX_SYNC_FLAG_VCACHE_INVALIDATE = 0x100,
                          D3D12XBOX_SYNC_FLAG_GL0_INVALIDATE = 0x100,
                          D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE = 0x200,
                          D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE_UNSHARED = 0x400,
                          D3D12XBOX_SYNC_FLAG_GL2_VOLATILE = 0x800,
                          D3D12XBOX_SYNC_FLAG_GL2_RANGE = 0x1000,
                          D3D12XBOX_SYNC_FLAG_GL2_MARGIN = 0x1800,
                          D3D12XBOX_SYNC_FLAG_GL2_INVALIDATE = 0x4000,
                          D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK = 0x8000,
                          D3D12XBOX_SYNC_FLAG_SYNC_CPDMA = 0x20000,
                          D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_DATA_FLUSH = 0x40000,
                          D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_DATA_FLUSH = 0x80000,
                          D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH = 0x100000,
                          D3D12XBOX_SYNC_FLAG_VS_PARTIAL_FLUSH = 0x200000,
                          D3D12XBOX_SYNC_FLAG_PS_PARTIAL_FLUSH = 0x400000,
                          D3D12XBOX_SYNC_FLAG_STREAMOUT_FLUSH = 0x800000,
                          D3D12XBOX_SYNC_FLAG_BASE_COHERENCY = 0x1000000,
                          D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_INVALIDATE = 0x2000000,
                          D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_INVALIDATE = 0x4000000,
                          D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_META_FLUSH = 0x8000000,
                          D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_META_FLUSH = 0x10000000,
                          D3D12XBOX_SYNC_FLAG_DEPTH_BLOCK_COHERENCY = 0x20000000,
                          D3D12XBOX_SYNC_FLAG_COLOR_BLOCK_COHERENCY = 0x40000000,
                          D3D12XBOX_SYNC_FLAG_IDLE = 0x80000000;

inline constexpr uint32_t D3D12XBOX_DISPATCH_FLAG_NONE = 0x0,
                          D3D12XBOX_DISPATCH_FLAG_FORCE_START_AT_000 = 0x4,
                          D3D12XBOX_DISPATCH_FLAG_ENABLE_ORDERED_APPEND = 0x8,
                          D3D12XBOX_DISPATCH_FLAG_ORDERED_APPEND_WAVEID_PER_THREADGROUP = 0x10,
                          D3D12XBOX_DISPATCH_FLAG_USE_THREAD_DIMENSIONS = 0x20,
                          D3D12XBOX_DISPATCH_FLAG_ENABLE_OUT_OF_ORDER = 0x40,
                          D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_VECTOR_L1 = 0x80,
                          D3D12XBOX_DISPATCH_FLAG_DISABLE_VOLATILE_SCALAR_L1 = 0x200,
                          D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_SCALAR_L1 = 0x400,
                          D3D12XBOX_DISPATCH_FLAG_INVALIDATE_VOLATILE_VECTOR_L1 = 0x800,
                          D3D12XBOX_DISPATCH_FLAG_W32 = 0x8000;

// syncproof's numbering (no published values).
inline constexpr uint32_t D3D12XBOX_SYNC_CONTROL_FLAG_NONE = 0x0,
                          D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_PFP = 0x1,
                          D3D12XBOX_SYNC_CONTROL_FLAG_TOP_SELECT_ENGINE_CE = 0x2,
                          D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_PFP = 0x4,
                          D3D12XBOX_SYNC_CONTROL_FLAG_IDLE_SELECT_ENGINE_CE = 0x8,
                          D3D12XBOX_SYNC_CONTROL_FLAG_CPDMA_SELECT_ENGINE_PFP = 0x10,
                          D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_FORWARD = 0x20,
                          D3D12XBOX_SYNC_CONTROL_FLAG_GCR_SEQUENCE_REVERSE = 0x40;
inline constexpr uint32_t D3D12XBOX_WRITE_VALUE_BOP_FLAG_NONE = 0x0,
                          D3D12XBOX_WRITE_VALUE_BOP_FLAG_GPU_TIMESTAMP = 0x1,
                          D3D12XBOX_WRITE_VALUE_BOP_FLAG_SYSTEM_TIMESTAMP = 0x2;

// BaseAddress 0 with this SizeInBytes is the whole memory (no published value either).
inline constexpr uint64_t D3D12XBOX_FLUSH_RANGE_ALL = ~uint64_t{0};

enum D3D12_COMPARISON_FUNC : uint32_t {  // d3d12.h's values
  D3D12_COMPARISON_FUNC_NEVER = 1,
  D3D12_COMPARISON_FUNC_LESS = 2,
  D3D12_COMPARISON_FUNC_EQUAL = 3,
  D3D12_COMPARISON_FUNC_LESS_EQUAL = 4,
  D3D12_COMPARISON_FUNC_GREATER = 5,
  D3D12_COMPARISON_FUNC_NOT_EQUAL = 6,
  D3D12_COMPARISON_FUNC_GREATER_EQUAL = 7,
  D3D12_COMPARISON_FUNC_ALWAYS = 8,
};
}  // namespace d3d12

// Where a recording call was made: the default argument `Where::current()` is evaluated at the
// caller. std::source_location where the library has it (C++20); otherwise the compiler's
// builtins where they exist (clang: file, line and column; GCC: file and line, column 0); any
// other compiler gets no call site (file ""), and recordings still work.
struct Where {
  const char* file = "";
  unsigned line = 0, column = 0;
#if defined(__cpp_lib_source_location)
  static constexpr Where current(
      std::source_location s = std::source_location::current()) noexcept {
    return {s.file_name(), static_cast<unsigned>(s.line()), static_cast<unsigned>(s.column())};
  }
#elif defined(__clang__)
  static constexpr Where current(const char* f = __builtin_FILE(), unsigned l = __builtin_LINE(),
                                 unsigned c = __builtin_COLUMN()) noexcept {
    return {f, l, c};
  }
#elif defined(__GNUC__)
  static constexpr Where current(const char* f = __builtin_FILE(),
                                 unsigned l = __builtin_LINE()) noexcept {
    return {f, l, 0};
  }
#else
  static constexpr Where current() noexcept {
    return {};
  }
#endif
};

enum class QueueType : uint8_t { Graphics, Compute, Host };  // DIRECT, COMPUTE, the CPU
// How the work touches a resource (docs/CASE-LANGUAGE.md "KIND").
enum class Kind : uint8_t {
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
  Host
};
enum class Stage : uint8_t { Default, Vs, Ps, Cs };

struct Resource {
  std::string name;
  uint64_t address = 0;  // its GPU virtual address (for BaseAddress/SizeInBytes)
  uint64_t size = 0;
};
struct Fence {
  std::string name;
};

struct Access {
  bool write = false;
  std::string resource;
  Kind kind = Kind::Srv;
  Stage stage = Stage::Default;
};
Access Reads(const Resource& r, Kind k, Stage s = Stage::Default);
Access Writes(const Resource& r, Kind k, Stage s = Stage::Default);

enum class IndirectKind : uint8_t { Default, Draw, Dispatch };  // the command signature's

struct Command;   // a recorded call (internal)
struct CaseText;  // a recording as case text (internal)

// ID3D12GraphicsCommandList6 (and the Xbox extensions), recording into a list that a
// CommandQueue executes. Label() names the next command for properties and traces.
class CommandList {
 public:
  CommandList();
  ~CommandList();
  CommandList(CommandList&&) noexcept;
  CommandList& operator=(CommandList&&) noexcept;

  void Label(std::string name);
  void SetAccesses(std::vector<Access> accesses);  // for the next work command without its own
  void SetCopyEngine(bool pfp_dma);                // copies go to the PFP's CP DMA queue (`[pfp]`)
  void SetWave32(bool wave32);  // the next shaders are compiled for wave32 (`[wave32]`)

  void SyncTopOfPipeX(uint32_t SyncFlags, uint32_t ControlFlags, uint64_t BaseAddress,
                      uint64_t SizeInBytes, Where w = Where::current());
  void SyncBottomOfPipeX(uint32_t SyncFlags, uint32_t ControlFlags, uint64_t BaseAddress,
                         uint64_t SizeInBytes, Where w = Where::current());
  void Write32BitValueBottomOfPipe2X(uint64_t Destination, uint32_t Value, uint32_t SyncFlags,
                                     uint32_t ControlFlags, uint32_t WriteFlags,
                                     Where w = Where::current());
  void Write64BitValueBottomOfPipe2X(uint64_t Destination, uint64_t Value, uint32_t SyncFlags,
                                     uint32_t ControlFlags, uint32_t WriteFlags,
                                     Where w = Where::current());
  void Wait32BitValueX(uint64_t Destination, d3d12::D3D12_COMPARISON_FUNC Comparison,
                       uint32_t Value, Where w = Where::current());
  void Wait64BitValueX(uint64_t Destination, d3d12::D3D12_COMPARISON_FUNC Comparison,
                       uint64_t Value, Where w = Where::current());

  void Dispatch(uint32_t ThreadGroupCountX, uint32_t ThreadGroupCountY, uint32_t ThreadGroupCountZ,
                std::vector<Access> accesses = {}, Where w = Where::current());
  void DispatchX(uint32_t ThreadGroupCountX, uint32_t ThreadGroupCountY, uint32_t ThreadGroupCountZ,
                 uint32_t DispatchFlags, std::vector<Access> accesses = {},
                 Where w = Where::current());
  void DrawInstanced(uint32_t VertexCountPerInstance, uint32_t InstanceCount,
                     uint32_t StartVertexLocation, uint32_t StartInstanceLocation,
                     std::vector<Access> accesses = {}, Where w = Where::current());
  void DrawIndexedInstanced(uint32_t IndexCountPerInstance, uint32_t InstanceCount,
                            uint32_t StartIndexLocation, int32_t BaseVertexLocation,
                            uint32_t StartInstanceLocation, std::vector<Access> accesses = {},
                            Where w = Where::current());
  // The argument buffer is read by the PFP (graphics) or the MEC (compute).
  void ExecuteIndirect(IndirectKind CommandSignature, uint32_t MaxCommandCount,
                       const Resource& ArgumentBuffer, uint64_t ArgumentBufferOffset,
                       std::vector<Access> accesses = {}, Where w = Where::current());
  // Copies run on the CP DMA engine; the whole resources count as accessed.
  void CopyBufferRegion(const Resource& DstBuffer, uint64_t DstOffset, const Resource& SrcBuffer,
                        uint64_t SrcOffset, uint64_t NumBytes, Where w = Where::current());
  void CopyResource(const Resource& DstResource, const Resource& SrcResource,
                    Where w = Where::current());
  void CopyTextureRegion(const Resource& Dst, uint32_t DstX, uint32_t DstY, uint32_t DstZ,
                         const Resource& Src, Where w = Where::current());

  // Internal: the recorded calls.
  const std::vector<Command>& commands() const;

 private:
  void work(std::string api, std::string attrs, std::vector<Access> accesses, Where w);
  void add(std::string text, Where w);
  std::unique_ptr<std::vector<Command>> cmds_;
  std::vector<Access> pending_;
  std::string label_;
  bool pfp_dma_ = false, wave32_ = false;
};

class Recorder;

// ID3D12CommandQueue: executes lists in submission order; Signal/Wait (and the Xbox Signal2X /
// WaitX) are queue-level. On a Host queue, Signal/Wait are the CPU's ID3D12Fence::Signal and a
// CPU wait, and Host() is CPU work on memory.
class CommandQueue {
 public:
  void ExecuteCommandLists(uint32_t NumCommandLists, CommandList* const* ppCommandLists);
  void ExecuteCommandLists(std::initializer_list<CommandList*> lists);
  void Signal(const Fence& fence, uint64_t Value, Where w = Where::current());
  void Wait(const Fence& fence, uint64_t Value, Where w = Where::current());
  void Signal2X(const Fence& fence, uint64_t Value, uint32_t SyncFlags = 0,
                Where w = Where::current());
  void WaitX(const Fence& fence, uint64_t Value, uint32_t SyncFlags = 0,
             Where w = Where::current());
  void Label(std::string name);  // names the next queue-level command
  void Host(std::vector<Access> accesses, Where w = Where::current());

 private:
  friend class Recorder;
  CommandQueue(Recorder* r, size_t index) : r_(r), index_(index) {}
  void add(std::string text, Where w);
  Recorder* r_;
  size_t index_;
  std::string label_;
};

// Properties, as the case language states them (command labels name A and B).
struct Property {
  std::string kind;  // visible, ordered, no-hazards, deadlock-free
  std::string from, to, on;
};
Property Visible(std::string from, std::string to, std::string on = "");
Property Ordered(std::string from, std::string to);
Property NoHazards();
Property DeadlockFree();

struct Options {
  std::string profile;              // "" (the recording's own, rdna2 by default) or strict/rdna2
  std::vector<std::string> assume;  // "+ID" / "-ID"
  unsigned timeout_ms = 20000;      // per solver question
  // A violated Prove gets its fix (PropertyResult::fix), searched with at most `fix_budget`
  // engine calls, as `syncproof check` gives it.
  bool fix = true;
  unsigned fix_budget = 3000;
};

struct Diagnostic {
  std::string severity;  // "error" or "warning"
  std::string file;      // where the recording call was made
  unsigned line = 0, column = 0;
  unsigned case_line = 0;  // the line of CaseText() it is about
  std::string message;
  std::string text() const;  // "FILE:LINE:COL: error: MESSAGE"
};

struct TraceStep {
  long long time = 0;
  std::string queue;
  unsigned case_line = 0;  // line of CaseText()
  std::string file;        // the call that recorded the command
  unsigned line = 0;
  std::string command, what;
  unsigned column = 0;
};

// One edit of a verified fix, at the recording call it changes (or inserts a call before).
struct FixEdit {
  std::string file;  // the call
  unsigned line = 0, column = 0;
  std::string text;  // "FILE:LINE:COL: add D3D12XBOX_SYNC_FLAG_GL1_INVALIDATE to WaitX (+2)"
};

struct PropertyResult {
  std::string property;  // "prove visible produce -> consume"
  std::string rule;      // P-VISIBLE, ...
  std::string verdict;   // proved, violated, unknown, error
  bool as_expected = false;
  std::vector<std::string> assumptions;  // proved: the named assumptions the proof used
  std::vector<TraceStep> trace;          // violated: the counterexample
  std::string why;
  std::vector<std::string> missing;  // violated: the flags or waits the explanation names
  // A violated Prove: the cheapest edits under which it is proved, by both engines (then
  // `missing` is that fix); none: `fix_note` says why.
  std::vector<FixEdit> fix;
  std::string fix_note;
  std::string reason;  // unknown / error
};

struct Result {
  std::vector<Diagnostic> diagnostics;
  bool has_errors = false;  // lint errors: no verdict is given
  std::vector<PropertyResult> properties;
  bool ok() const;             // no lint error and every property as expected
  std::string report() const;  // diagnostics, one line per property, traces: for test logs
};

class Recorder {
 public:
  explicit Recorder(std::string title = "");
  ~Recorder();
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  void Profile(std::string name, Where w = Where::current());
  void Assume(std::string choice, Where w = Where::current());  // "+ID" / "-ID"
  void Target(std::string key, std::string value, Where w = Where::current());

  CommandQueue& CreateCommandQueue(std::string name, QueueType type, Where w = Where::current());
  Resource CreateBuffer(std::string name, uint64_t GpuVirtualAddress, uint64_t SizeInBytes,
                        Where w = Where::current());
  Resource CreateTexture(std::string name, uint64_t GpuVirtualAddress, uint64_t SizeInBytes,
                         bool compressed = false, Where w = Where::current());
  Fence CreateFence(std::string name, Where w = Where::current());
  // An 8-byte label word for Write*BitValueBottomOfPipe2X / Wait*BitValueX: returns its address.
  uint64_t CreateLabel(std::string name, uint64_t GpuVirtualAddress, Where w = Where::current());

  void Prove(Property p, Where w = Where::current());
  void Refute(Property p, std::vector<std::string> missing = {}, Where w = Where::current());
  void Check(Property p, Where w = Where::current());

  // A recording ID3D12Device (include <syncproof/d3d12_xs.h> to use it): its queues, lists,
  // fences and resources record into this Recorder. Every object it creates lives as long as the
  // Recorder (Release never frees one). The same device on every call.
  ID3D12Device* Device();

  std::string CaseText() const;  // the equivalent case file
  Result Verify(const Options& o = {}) const;

  struct Impl;

 private:
  friend class CommandQueue;
  friend record::CaseText case_text(const Recorder& r);
  void property(std::string verb, const Property& p, std::vector<std::string> missing, Where w);
  std::unique_ptr<Impl> impl_;
};

}  // namespace syncproof::record
