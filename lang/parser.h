#pragma once
// Internal to lang/: the parser state shared by parser.cpp (driver, names), parse_decls.cpp,
// parse_work.cpp, parse_sync.cpp, parse_flags.cpp, parse_props.cpp and lint.cpp.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "lang/cursor.h"
#include "lang/parse.h"
#include "model/d3d12.h"

namespace syncproof::lang::detail {

enum class NameKind : uint8_t { Queue, Resource, Fence, Label, Command };
std::string_view to_string(NameKind k);
// "graphics", "compute" or "host", for diagnostics about a queue.
std::string_view queue_word(model::QueueType q);

struct Symbol {
  NameKind kind = NameKind::Resource;
  uint32_t line = 0;
  bool valid = true;   // false: its declaration had an error, references to it stay silent
  uint32_t index = 0;  // into Case::queues/resources/fences/labels, or the queue's commands
  uint32_t queue = 0;  // Command: its queue
};

// The commands of the language (the spelling of d3d12_xs.h where there is one).
enum class Api : uint8_t {
  Draw,
  DrawInstanced,
  DrawIndexedInstanced,
  Dispatch,
  DispatchX,
  ExecuteIndirect,
  CopyBufferRegion,
  CopyResource,
  CopyTextureRegion,
  Host,
  SyncTopOfPipeX,
  SyncBottomOfPipeX,
  Write32BitValueBottomOfPipe2X,
  Write64BitValueBottomOfPipe2X,
  Wait32BitValueX,
  Wait64BitValueX,
  Signal2X,
  WaitX,
  Signal,
  Wait,
  ResourceBarrier,
  Barrier,
};
std::optional<Api> api_from_name(std::string_view name);
std::vector<std::string_view> api_names();
bool is_work(Api a);

// A flag word as written: its items (to locate problems) and their OR.
struct FlagItem {
  const Token* tok = nullptr;
  uint32_t value = 0;                   // numeric contribution (0 for name-only flags)
  const model::FlagDef* def = nullptr;  // nullptr for numbers
};
struct FlagWord {
  uint32_t value = 0;
  std::vector<FlagItem> items;
  uint32_t col = 0, len = 1;  // the whole argument
};

// A d3d12.h word (lang/parse_barrier.cpp): its items, to locate problems, and their OR.
struct D3dWord {
  uint32_t value = 0;
  std::vector<std::pair<const Token*, uint32_t>> items;
  uint32_t col = 0, len = 1;
};
inline constexpr uint32_t kNullResource = UINT32_MAX;  // NULL where a barrier takes one

struct Destination {
  std::optional<uint32_t> label;
  uint64_t address = 0;
};

struct FenceWait {  // checked when the whole file is known
  uint32_t fence;
  uint64_t value;
  const Token* at;
  uint32_t line;
};
struct LabelWait {
  Destination dest;
  model::Comparison cmp;
  uint64_t value;
  unsigned bytes;   // 4 (Wait32BitValueX) or 8
  const Token* at;  // the Destination argument
  uint32_t line;
};

class Parser {
 public:
  Parser(std::string_view file, std::string_view text);
  ParseResult run();

 private:
  // ---- driver (parser.cpp) ----
  void split_lines(std::string_view text);
  void prescan();
  void parse_line(const std::vector<Token>& toks);
  bool check_brackets(const std::vector<Token>& toks);
  void unknown_statement(const Token& t);

  // ---- diagnostics ----
  void report(model::Severity s, uint32_t col, uint32_t len, std::string msg);
  void error(const Token& t, std::string msg) {
    report(model::Severity::Error, t.col, t.len, std::move(msg));
  }
  void warning(const Token& t, std::string msg) {
    report(model::Severity::Warning, t.col, t.len, std::move(msg));
  }
  bool expect_end(const Cursor& c, std::string_view what);

  // ---- names (parser.cpp) ----
  bool declare(const Token& name, NameKind kind, uint32_t index, bool valid, uint32_t queue = 0);
  const Symbol* lookup(const Token& name, NameKind want);
  std::optional<uint32_t> resource(const Token& name);

  // ---- declarations (parse_decls.cpp) ----
  void parse_declaration(Cursor& c);
  void parse_case_title(Cursor& c);
  void parse_profile(Cursor& c);
  void parse_assume(Cursor& c);
  void parse_target(Cursor& c);
  void parse_queue(Cursor& c);
  void parse_resource(Cursor& c, model::ResourceKind kind);
  bool parse_initial_state(Cursor& c, model::Resource& r);
  void parse_fence(Cursor& c);
  void parse_label(Cursor& c);
  void parse_on(Cursor& c);
  std::optional<uint64_t> number(Cursor& c, std::string_view what);
  const Token* new_name(Cursor& c, std::string_view what);

  // ---- commands (parse_work.cpp, parse_sync.cpp) ----
  void parse_command(Cursor& c);
  std::optional<model::CommandBody> parse_work(Cursor& c, Api api, const Token& name);
  bool parse_attrs(Cursor& c, model::WorkCmd& w, std::optional<bool>& indirect_draw, Api api);
  bool parse_accesses(Cursor& c, model::WorkCmd& w, const Token& name);
  bool check_work_on_queue(const model::WorkCmd& w, const Token& name);
  bool check_access(const model::WorkCmd& w, model::Access& a, const Token& kind,
                    const Token* stage);
  std::optional<model::CommandBody> parse_sync(Cursor& c, Api api, const Token& name);
  std::optional<model::CommandBody> parse_sync_range_api(std::vector<Cursor>& args, Api api);
  std::optional<model::CommandBody> parse_bop_write(std::vector<Cursor>& args, Api api);
  std::optional<model::CommandBody> parse_wait_value(std::vector<Cursor>& args, Api api);
  std::optional<model::CommandBody> parse_fence_api(std::vector<Cursor>& args, Api api);
  std::optional<std::vector<Cursor>> call_args(Cursor& c, const Token& name, std::string_view sig,
                                               size_t min_args, size_t max_args, bool last = true);
  bool single(Cursor arg, std::string_view what);
  std::optional<uint64_t> value_arg(Cursor arg, std::string_view what, bool is32);
  std::optional<Destination> destination_arg(Cursor arg);
  std::optional<model::Comparison> comparison_arg(Cursor arg);
  std::optional<uint32_t> fence_arg(Cursor arg);
  std::optional<model::SyncRange> range_args(Cursor base, Cursor size);
  const model::Queue* current_queue() const;

  // ---- standard barriers (parse_barrier.cpp) ----
  std::optional<model::CommandBody> parse_barrier(Cursor& c, Api api, const Token& name);
  std::optional<model::CommandBody> parse_resource_barrier(std::vector<Cursor>& args,
                                                           model::BarrierCmd b);
  std::optional<model::CommandBody> parse_enhanced_barrier(std::vector<Cursor>& args,
                                                           model::BarrierCmd b);
  std::optional<D3dWord> d3d12_word(Cursor arg, model::d3d12::Family f, std::string_view slot);
  bool check_queue_bits(const D3dWord& w, uint32_t allowed, model::d3d12::Family f);
  std::optional<uint32_t> barrier_resource(Cursor arg, bool null_ok, std::string_view slot);
  void check_enhanced_rules(const model::BarrierCmd& b, const D3dWord& sb, const D3dWord& sa,
                            const D3dWord& ab, const D3dWord& aa, const D3dWord* la);
  std::optional<D3dWord> state_words(Cursor& c, model::d3d12::Family f, std::string_view slot);

  // ---- flag words (parse_flags.cpp) ----
  std::optional<FlagWord> flag_word(Cursor arg, model::FlagFamily family, std::string_view slot);
  void report_problems(const std::vector<model::FlagProblem>& problems, const FlagWord& w);
  model::SpelledMargins spelled_margins(const FlagWord& w) const;

  // ---- properties (parse_props.cpp) ----
  void parse_property(Cursor& c);
  const model::Command* command_for(const Token& label);
  bool check_visible(const model::Property& p, const Token& from, const Token& to, const Token* on);
  bool check_ordered(const Token& from, const Token& to);

  // ---- whole-file checks (lint.cpp) ----
  void finish();
  void check_overlap(const model::Resource& r, const Token& name);
  // state tracking and split pairing of the standard barriers (state_track.cpp)
  void command_clocks(std::vector<std::vector<std::vector<uint32_t>>>& clock,
                      std::vector<std::pair<uint32_t, uint32_t>>& order);
  void check_states();
  void check_splits();

  model::Case c_;
  std::vector<Diagnostic> diags_;
  std::vector<LexedLine> lexed_;
  std::unordered_map<std::string, Symbol> names_;
  std::unordered_map<std::string, uint32_t> decl_line_;  // prescan: where each name is declared
  std::unordered_map<std::string, uint32_t> assumption_line_;
  std::unordered_map<std::string, uint32_t> target_line_;
  uint32_t line_ = 0;  // 1-based, the line being parsed
  bool in_block_ = false;
  std::optional<uint32_t> block_queue_;  // nullopt in a block whose queue is unknown
  // Per queue, the command index at which each of its `on` blocks begins: each block is one
  // ExecuteCommandLists (state decay, lang/state_track.cpp).
  std::map<uint32_t, std::vector<uint32_t>> block_starts_;
  uint32_t case_line_ = 0;
  size_t statements_ = 0;
  size_t errors_ = 0;
  std::vector<FenceWait> fence_waits_;
  std::vector<LabelWait> label_waits_;
};

inline bool is_draw(model::WorkKind w) {
  return w == model::WorkKind::Draw || w == model::WorkKind::IndirectDraw;
}

// Whether two (non-empty) resources share a byte.
inline bool overlaps(const model::Resource& a, const model::Resource& b) {
  return a.address <= b.address + (b.size - 1) && b.address <= a.address + (a.size - 1);
}

// Closest candidate by edit distance (case-insensitive), if close enough to suggest.
std::optional<std::string> closest(std::string_view word,
                                   const std::vector<std::string_view>& candidates);

}  // namespace syncproof::lang::detail
