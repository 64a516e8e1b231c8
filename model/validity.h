#pragma once
// Which flags each API and queue type accepts, from the seeds. Returns problems as data;
// the case-language linter turns them into located diagnostics.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "model/flags.h"

namespace syncproof::model {

enum class QueueType : uint8_t { Graphics, Compute, Host };
std::string_view to_string(QueueType q);

enum class SyncApi : uint8_t {
  SyncTopOfPipeX,
  SyncBottomOfPipeX,
  Write32BitValueBottomOfPipe2X,
  Write64BitValueBottomOfPipe2X,
  Signal2X,  // flags passed "indirectly" (000); accepted set is an inference, see validity.cpp
  WaitX,
};
std::string_view to_string(SyncApi a);
bool is_bop_write(SyncApi a);

enum class Severity : uint8_t { Warning, Error };

struct FlagProblem {
  Severity severity;
  uint32_t bits;        // the offending bits (0 when the problem is about a combination/field)
  std::string message;  // complete sentence fragment, e.g.
                        // "D3D12XBOX_SYNC_FLAG_CS_PARTIAL_FLUSH is not accepted by SyncTopOfPipeX"
};

// The sync flags an API accepts on a queue type (seed 000 masks, 002 list).
uint32_t accepted_sync_flags(SyncApi api, QueueType q);

// Everything wrong or suspicious with a SyncFlags word passed to `api` on queue `q`:
// flags not accepted (by API, by queue type), unknown bits, MARGIN produced by OR-ing
// INVALIDATE|RANGE (warning), range/margin selectors that modify nothing (warning),
// PFP_SYNC_ME and CB/DB/VS/PS flags on a compute queue (error).
// `whole_memory` is true for BaseAddress 0 + D3D12XBOX_FLUSH_RANGE_ALL (a range selector with the
// whole-memory range is a warning). `spelled_margin_*` say whether the user wrote the MARGIN name
// (no aliasing warning then).
struct SyncFlagContext {
  SyncApi api;
  QueueType queue;
  bool whole_memory = true;
  bool spelled_icache_margin = false, spelled_gl1_margin = false, spelled_gl2_margin = false;
};
std::vector<FlagProblem> check_sync_flags(uint32_t value, const SyncFlagContext& ctx);
// Only the "MARGIN obtained by OR-ing" warnings of check_sync_flags, for a word on its own (used by
// `syncproof encode`); a field whose MARGIN name was spelled gets no warning.
std::vector<FlagProblem> check_margin_aliasing(uint32_t value, bool spelled_icache_margin,
                                               bool spelled_gl1_margin, bool spelled_gl2_margin);

// Control flags per API (001, 004, 002).
std::vector<FlagProblem> check_control_flags(ControlFlags flags, SyncApi api, QueueType q);

// Control flags that modify nothing given the SyncFlags beside them (warnings):
// CPDMA_SELECT_ENGINE_PFP without SYNC_CPDMA, IDLE_SELECT_ENGINE_* without IDLE, GCR_SEQUENCE_*
// without any cache operation to sequence.
std::vector<FlagProblem> check_control_effect(ControlFlags flags, uint32_t sync_flags);

// DispatchX flags: unknown bits, ENABLE_OUT_OF_ORDER only on compute (async) queues,
// W32 only when the shader is compiled for wave32 (003).
std::vector<FlagProblem> check_dispatch_flags(uint32_t value, QueueType q, bool shader_is_wave32);

// WriteFlags of Write32/64BitValueBottomOfPipe2X: one at a time (002). The seed names
// NONE, GPU_TIMESTAMP and SYSTEM_TIMESTAMP but publishes no numbers for the last two, so they
// are given as the list of names the user wrote (NONE contributes nothing).
std::vector<FlagProblem> check_write_value_flags(std::span<const WriteValueSource> named);

// Destination of Write32/64BitValueBottomOfPipe2X (and of Wait*BitValueX, `wait`) must be 4-byte
// aligned (002) and leave room for its `bytes`-byte word below 2^64.
std::vector<FlagProblem> check_bop_destination(uint64_t address, uint64_t bytes = 8,
                                               bool wait = false);

}  // namespace syncproof::model
