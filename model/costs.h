#pragma once
// What a barrier costs: one number per sync operation, control flag and sync command, in relative
// units (a GL0 invalidation is 1). The table and its reasoning are model/COSTS.md (a unit test
// keeps the two equal); `syncproof fix`, `check --redundant` and `barrier` minimize it, print it,
// and take `--cost NAME=N` overrides. Plain data: no semantics beyond the numbers.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/case.h"

namespace syncproof::model {

enum class CostKind : uint8_t {
  SyncFlag,  // an operation of D3D12XBOX_SYNC_FLAGS (key: its bit; ICACHE: the field's ALL value)
  Control,   // a D3D12XBOX_SYNC_CONTROL_FLAG (key: the ControlFlag)
  Command,   // the command itself, before its flags (key: CostCommand)
};

// The commands that cost something of their own.
enum class CostCommand : uint8_t {
  SyncTopOfPipeX,     // one ACQUIRE_MEM-like packet
  SyncBottomOfPipeX,  // one RELEASE_MEM-like event
  BopWrite,           // Write32/64BitValueBottomOfPipe2X
  WaitValue,          // Wait32/64BitValueX: the queue stalls on a poll
  Signal2X,
  WaitX,
  Signal,      // the standard ID3D12CommandQueue::Signal on a GPU queue (its flushes extra)
  Wait,        // the standard Wait on a GPU queue (its invalidations extra)
  HostSignal,  // ID3D12Fence::Signal on the CPU
  HostWait,    // the CPU waits for a fence
  // The standard barriers, each form's packets (what PAL emits for it besides is counted as the
  // sync operations of model/barrier_pal.h), and the decompression of a compressed texture's
  // layout change.
  ResourceBarrierTransition,
  ResourceBarrierUav,
  ResourceBarrierAliasing,
  BarrierGlobal,
  BarrierBuffer,
  BarrierTexture,
  CompressedLayoutChange,
};

struct CostEntry {
  CostKind kind;
  uint32_t key;
  std::string_view name;  // full name: "D3D12XBOX_SYNC_FLAG_GL2_WRITEBACK", "SyncTopOfPipeX", ...
  int cost;
};

// Every entry, in the order of model/COSTS.md.
std::span<const CostEntry> cost_table();

class CostModel {
 public:
  CostModel();
  // "GL2_WRITEBACK=40", "D3D12XBOX_SYNC_FLAG_IDLE=10", "SyncTopOfPipeX=2": a flag name with or
  // without its prefix, or a command name; N from 0 to 1000000. An error message when not.
  std::optional<std::string> set(std::string_view assignment);

  int flag(uint32_t bit) const;  // one operation bit (ICACHE: 1, its ALL value)
  int control(ControlFlag f) const;
  int command(CostCommand c) const;
  // The operations of a SyncFlags word: each operation bit, and ICACHE once whatever its
  // selector (ALL, RANGE or MARGIN); range, margin and volatile selectors cost nothing.
  int sync_word(uint32_t word) const;
  int controls(ControlFlags f) const;
  // A whole command on a queue of type q: the command, its flags, and what a standard fence does
  // besides (SEMANTICS.md §5 R-STD-FENCE, R-FENCE-REACH). Work costs 0. A standard barrier costs
  // its form's packets and the operations PAL emits for it (model/barrier_pal.h), under the
  // case's resources and target when `c` is given (else the conservative target).
  int of(const Command& cmd, QueueType q, const Case* c = nullptr) const;
  int of_barrier(const BarrierCmd& b, QueueType q, const Case* c) const;
  // Every command of the case.
  int barrier(const Case& c) const;

 private:
  std::vector<int> cost_;  // by index into cost_table()
};

// "IDLE" for D3D12XBOX_SYNC_FLAG_IDLE, "TOP_SELECT_ENGINE_PFP" for a control flag.
std::string short_flag_name(std::string_view full);

}  // namespace syncproof::model
