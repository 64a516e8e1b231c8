// Sync commands, spelled as in d3d12_xs.h: SyncTopOfPipeX/SyncBottomOfPipeX, the BOP value
// writes, Wait32/64BitValueX, Signal2X/WaitX and the standard Signal/Wait. Each problem that
// model/validity.h finds is reported at the argument that causes it.
#include <fmt/format.h>

#include "lang/parser.h"

namespace syncproof::lang::detail {

namespace {

model::SyncApi sync_api(Api a) {
  switch (a) {
    case Api::SyncBottomOfPipeX:
      return model::SyncApi::SyncBottomOfPipeX;
    case Api::Write32BitValueBottomOfPipe2X:
      return model::SyncApi::Write32BitValueBottomOfPipe2X;
    case Api::Write64BitValueBottomOfPipe2X:
      return model::SyncApi::Write64BitValueBottomOfPipe2X;
    case Api::Signal2X:
    case Api::Signal:
      return model::SyncApi::Signal2X;
    case Api::WaitX:
    case Api::Wait:
      return model::SyncApi::WaitX;
    default:
      return model::SyncApi::SyncTopOfPipeX;
  }
}

std::string_view signature(Api a) {
  switch (a) {
    case Api::SyncTopOfPipeX:
      return "SyncTopOfPipeX(SyncFlags, ControlFlags, BaseAddress, SizeInBytes)";
    case Api::SyncBottomOfPipeX:
      return "SyncBottomOfPipeX(SyncFlags, ControlFlags, BaseAddress, SizeInBytes)";
    case Api::Write32BitValueBottomOfPipe2X:
      return "Write32BitValueBottomOfPipe2X(Destination, Value, SyncFlags, ControlFlags, "
             "WriteFlags)";
    case Api::Write64BitValueBottomOfPipe2X:
      return "Write64BitValueBottomOfPipe2X(Destination, Value, SyncFlags, ControlFlags, "
             "WriteFlags)";
    case Api::Wait32BitValueX:
      return "Wait32BitValueX(Destination, Comparison, Value)";
    case Api::Wait64BitValueX:
      return "Wait64BitValueX(Destination, Comparison, Value)";
    case Api::Signal2X:
      return "Signal2X(Fence, Value[, SyncFlags])";
    case Api::WaitX:
      return "WaitX(Fence, Value[, SyncFlags])";
    case Api::Signal:
      return "Signal(Fence, Value)";
    case Api::Wait:
      return "Wait(Fence, Value)";
    default:
      return "";
  }
}

}  // namespace

std::optional<model::CommandBody> Parser::parse_sync(Cursor& c, Api api, const Token& name) {
  const std::string_view sig = signature(api);
  size_t min_args = 2, max_args = 2;  // Signal, Wait
  switch (api) {
    case Api::SyncTopOfPipeX:
    case Api::SyncBottomOfPipeX:
      min_args = max_args = 4;
      break;
    case Api::Write32BitValueBottomOfPipe2X:
    case Api::Write64BitValueBottomOfPipe2X:
      min_args = max_args = 5;
      break;
    case Api::Wait32BitValueX:
    case Api::Wait64BitValueX:
      min_args = max_args = 3;
      break;
    case Api::Signal2X:
    case Api::WaitX:
      max_args = 3;
      break;
    default:
      break;
  }
  std::optional<std::vector<Cursor>> args = call_args(c, name, sig, min_args, max_args);
  if (!args) return std::nullopt;
  if (const model::Queue* q = current_queue();
      q && q->type == model::QueueType::Host && api != Api::Signal && api != Api::Wait) {
    const bool queue_method = api == Api::Signal2X || api == Api::WaitX;
    error(name, fmt::format("{} is not allowed on host queue {}: {}", name.text, quote(q->name),
                            queue_method ? "the CPU signals and waits with Signal and Wait"
                                         : "it is a GPU command-list API"));
    return std::nullopt;
  }
  switch (api) {
    case Api::SyncTopOfPipeX:
    case Api::SyncBottomOfPipeX:
      return parse_sync_range_api(*args, api);
    case Api::Write32BitValueBottomOfPipe2X:
    case Api::Write64BitValueBottomOfPipe2X:
      return parse_bop_write(*args, api);
    case Api::Wait32BitValueX:
    case Api::Wait64BitValueX:
      return parse_wait_value(*args, api);
    default:
      return parse_fence_api(*args, api);
  }
}

std::optional<model::CommandBody> Parser::parse_sync_range_api(std::vector<Cursor>& args, Api api) {
  model::SyncCmd s;
  s.api = sync_api(api);
  std::optional<FlagWord> flags = flag_word(args[0], model::FlagFamily::Sync, "SyncFlags");
  std::optional<FlagWord> control =
      flag_word(args[1], model::FlagFamily::SyncControl, "ControlFlags");
  std::optional<model::SyncRange> range = range_args(args[2], args[3]);
  if (!flags || !control || !range) return std::nullopt;
  s.flags = flags->value;
  for (const FlagItem& it : control->items) {
    if (auto f = it.def ? model::control_flag_from_def(*it.def) : std::nullopt) s.control.set(*f);
  }
  s.range = *range;
  s.spelled = spelled_margins(*flags);
  if (const model::Queue* q = current_queue()) {
    model::SyncFlagContext ctx{s.api,         q->type,      s.range.all, s.spelled.icache,
                               s.spelled.gl1, s.spelled.gl2};
    report_problems(model::check_sync_flags(s.flags, ctx), *flags);
    report_problems(model::check_control_flags(s.control, s.api, q->type), *control);
    report_problems(model::check_control_effect(s.control, s.flags), *control);
  }
  return s;
}

std::optional<model::CommandBody> Parser::parse_bop_write(std::vector<Cursor>& args, Api api) {
  model::BopWriteCmd w;
  w.api = sync_api(api);
  const bool is32 = api == Api::Write32BitValueBottomOfPipe2X;
  std::optional<Destination> dest = destination_arg(args[0]);
  std::optional<uint64_t> value = value_arg(args[1], "Value", is32);
  std::optional<FlagWord> flags = flag_word(args[2], model::FlagFamily::Sync, "SyncFlags");
  std::optional<FlagWord> control =
      flag_word(args[3], model::FlagFamily::SyncControl, "ControlFlags");
  std::optional<FlagWord> write =
      flag_word(args[4], model::FlagFamily::WriteValueBop, "WriteFlags");
  if (!dest || !value || !flags || !control || !write) return std::nullopt;
  w.label = dest->label;
  w.address = dest->address;
  w.value = *value;
  w.flags = flags->value;
  for (const FlagItem& it : control->items) {
    if (auto f = it.def ? model::control_flag_from_def(*it.def) : std::nullopt) w.control.set(*f);
  }
  std::vector<model::WriteValueSource> sources;
  for (const FlagItem& it : write->items) {
    auto src = it.def ? model::write_value_source_from_def(*it.def) : std::nullopt;
    if (src && *src != model::WriteValueSource::Value) sources.push_back(*src);
  }
  if (!sources.empty()) w.source = sources.front();
  const FlagWord dest_word{0, {}, args[0].peek().col, args[0].peek().len};
  report_problems(model::check_bop_destination(w.address, is32 ? 4 : 8), dest_word);
  report_problems(model::check_write_value_flags(sources), *write);
  if (const model::Queue* q = current_queue()) {
    const model::SpelledMargins m = spelled_margins(*flags);
    model::SyncFlagContext ctx{w.api, q->type, true, m.icache, m.gl1, m.gl2};
    report_problems(model::check_sync_flags(w.flags, ctx), *flags);
    report_problems(model::check_control_flags(w.control, w.api, q->type), *control);
    report_problems(model::check_control_effect(w.control, w.flags), *control);
  }
  return w;
}

std::optional<model::CommandBody> Parser::parse_wait_value(std::vector<Cursor>& args, Api api) {
  model::WaitValueCmd w;
  w.is64 = api == Api::Wait64BitValueX;
  const Token& dest_tok = args[0].peek();
  const Token& cmp_tok = args[1].peek();
  std::optional<Destination> dest = destination_arg(args[0]);
  std::optional<model::Comparison> cmp = comparison_arg(args[1]);
  std::optional<uint64_t> value = value_arg(args[2], "Value", !w.is64);
  if (!dest || !cmp || !value) return std::nullopt;
  w.label = dest->label;
  w.address = dest->address;
  w.cmp = *cmp;
  w.value = *value;
  const FlagWord dest_word{0, {}, dest_tok.col, dest_tok.len};
  report_problems(model::check_bop_destination(w.address, w.is64 ? 8 : 4, true), dest_word);
  const std::string word = w.label ? "the label's" : "the memory word's";
  if (w.cmp == model::Comparison::Never) {
    warning(cmp_tok, "NEVER is never satisfied: this wait blocks forever");
  } else if (model::compare(w.cmp, 0, w.value)) {
    warning(cmp_tok, fmt::format("{} {} is satisfied by {} initial value 0: this wait does not "
                                 "order anything",
                                 model::to_string(w.cmp), args[2].peek().text, word));
  } else {
    label_waits_.push_back(LabelWait{*dest, w.cmp, w.value, w.is64 ? 8u : 4u, &dest_tok, line_});
  }
  return w;
}

std::optional<model::CommandBody> Parser::parse_fence_api(std::vector<Cursor>& args, Api api) {
  const bool xbox = api == Api::Signal2X || api == Api::WaitX;
  const Token& fence_tok = args[0].peek();
  std::optional<uint32_t> fence = fence_arg(args[0]);
  std::optional<uint64_t> value = value_arg(args[1], "Value", false);
  std::optional<FlagWord> flags;
  if (args.size() > 2) {
    flags = flag_word(args[2], model::FlagFamily::Sync, "SyncFlags");
    if (!flags) return std::nullopt;
  }
  if (!fence || !value) return std::nullopt;
  const uint32_t word = flags ? flags->value : 0;
  if (flags) {
    if (const model::Queue* q = current_queue()) {
      const model::SpelledMargins m = spelled_margins(*flags);
      model::SyncFlagContext ctx{sync_api(api), q->type, true, m.icache, m.gl1, m.gl2};
      report_problems(model::check_sync_flags(word, ctx), *flags);
    }
  }
  if (api == Api::Signal || api == Api::Signal2X) {
    return model::SignalCmd{xbox, *fence, *value, word};
  }
  if (*value == 0) {
    warning(args[1].peek(), fmt::format("{}({}, 0) is satisfied by the fence's initial value 0: "
                                        "this wait does not order anything",
                                        xbox ? "WaitX" : "Wait", fence_tok.text));
  } else {
    fence_waits_.push_back(FenceWait{*fence, *value, &fence_tok, line_});
  }
  return model::WaitFenceCmd{xbox, *fence, *value, word};
}

}  // namespace syncproof::lang::detail
