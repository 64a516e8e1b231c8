// Commands: the optional `LABEL:` prefix, then work (Draw, Dispatch, copies, Host...) with its
// attributes and memory accesses, checked against the work and the queue type.
#include <fmt/format.h>

#include "lang/parser.h"

namespace syncproof::lang::detail {

namespace {

using model::AccessKind;
using model::Stage;
using model::WorkKind;

WorkKind work_kind(Api api) {
  switch (api) {
    case Api::Dispatch:
    case Api::DispatchX:
      return WorkKind::Dispatch;
    case Api::CopyBufferRegion:
    case Api::CopyResource:
    case Api::CopyTextureRegion:
      return WorkKind::Copy;
    case Api::Host:
      return WorkKind::Host;
    default:
      return WorkKind::Draw;
  }
}

}  // namespace

std::string_view queue_word(model::QueueType q) {
  switch (q) {
    case model::QueueType::Graphics:
      return "graphics";
    case model::QueueType::Compute:
      return "compute";
    case model::QueueType::Host:
      return "host";
  }
  return "?";
}

void Parser::parse_command(Cursor& c) {
  const Token* label = nullptr;
  if (c.peek(1).kind == TokKind::Colon) {
    label = &c.next();
    c.next();
  }
  const Token& name = c.peek();
  if (!in_block_) {
    error(label ? *label : name, "command outside of an 'on QUEUE:' block");
    return;
  }
  std::optional<model::CommandBody> body;
  if (name.kind != TokKind::Ident) {
    error(name,
          fmt::format("expected a command after '{}:', found {}", label->text, describe(name)));
  } else if (std::optional<Api> api = api_from_name(name.text); !api) {
    c.next();
    std::string msg = fmt::format("unknown command {}", quote(name.text));
    if (auto best = closest(name.text, api_names()))
      msg += fmt::format("; did you mean '{}'?", *best);
    error(name, std::move(msg));
  } else {
    c.next();
    body = is_work(*api)                                        ? parse_work(c, *api, name)
           : api == Api::ResourceBarrier || api == Api::Barrier ? parse_barrier(c, *api, name)
                                                                : parse_sync(c, *api, name);
  }
  const model::Queue* q = current_queue();
  const bool keep = body && q;
  std::string label_text;
  if (label) {
    const uint32_t index = q ? static_cast<uint32_t>(q->commands.size()) : 0;
    if (declare(*label, NameKind::Command, index, keep, block_queue_.value_or(0))) {
      label_text = label->text;
    }
  }
  if (keep) {
    c_.queues[*block_queue_].commands.push_back(
        model::Command{std::move(label_text), std::move(*body), {line_, name.col}});
  }
}

std::optional<model::CommandBody> Parser::parse_work(Cursor& c, Api api, const Token& name) {
  model::WorkCmd w;
  w.kind = work_kind(api);
  w.api = name.text;
  std::optional<FlagWord> dispatch_flags;
  if (api == Api::DispatchX) {
    auto args = call_args(c, name, "DispatchX(DispatchFlags)", 1, 1, false);
    if (!args) return std::nullopt;
    dispatch_flags = flag_word((*args)[0], model::FlagFamily::Dispatch, "DispatchFlags");
    if (!dispatch_flags) return std::nullopt;
    w.dispatch_flags = dispatch_flags->value;
    w.has_dispatch_flags = true;
  } else if (c.at(TokKind::LParen)) {
    error(c.peek(), fmt::format("{} takes no parenthesized arguments: write '{} ACCESSES'",
                                name.text, name.text));
    return std::nullopt;
  }
  std::optional<bool> indirect_draw;
  if (!parse_attrs(c, w, indirect_draw, api)) return std::nullopt;
  const model::Queue* q = current_queue();
  if (api == Api::ExecuteIndirect) {
    const bool draw = indirect_draw.value_or(!q || q->type != model::QueueType::Compute);
    w.kind = draw ? WorkKind::IndirectDraw : WorkKind::IndirectDispatch;
    if (!c.accept_word("args")) {
      error(c.peek(), fmt::format("expected 'args BUFFER' (the argument buffer), found {}",
                                  describe(c.peek())));
      return std::nullopt;
    }
    const Token& buf = c.next();
    const std::optional<uint32_t> r = resource(buf);
    if (!r) return std::nullopt;
    w.accesses.push_back(
        model::Access{false, AccessKind::Indirect, *r, Stage::Cp, {line_, buf.col}});
    if (!c.at_end()) {
      if (!c.accept(TokKind::Comma)) {
        error(c.peek(),
              fmt::format("expected ',' before more accesses, found {}", describe(c.peek())));
        return std::nullopt;
      }
      if (!parse_accesses(c, w, name)) return std::nullopt;
    }
  } else if (!parse_accesses(c, w, name)) {
    return std::nullopt;
  }
  if (!check_work_on_queue(w, name)) return std::nullopt;
  if (dispatch_flags && q) {
    report_problems(model::check_dispatch_flags(dispatch_flags->value, q->type, w.wave32),
                    *dispatch_flags);
  }
  return w;
}

// `[wave32]`, `[pfp]`, and for ExecuteIndirect `draw`/`dispatch` (bare or in brackets).
bool Parser::parse_attrs(Cursor& c, model::WorkCmd& w, std::optional<bool>& indirect_draw,
                         Api api) {
  const bool copy = w.kind == WorkKind::Copy;
  const auto attr = [&](const Token& t) {
    if (api == Api::ExecuteIndirect && (t.text == "draw" || t.text == "dispatch")) {
      indirect_draw = t.text == "draw";
      return true;
    }
    if (t.text == "wave32" && !copy && w.kind != WorkKind::Host) {
      w.wave32 = true;
      return true;
    }
    if (t.text == "pfp" && copy) {
      w.pfp_dma = true;
      return true;
    }
    if (t.text == "wave32" || t.text == "pfp") {
      error(t, t.text == "pfp" ? "[pfp] applies to copies only (the PFP's CP DMA queue)"
                               : "[wave32] applies to draws and dispatches only");
      return false;
    }
    std::string msg = fmt::format("unknown attribute {}", quote(t.text));
    if (auto best = closest(t.text, {"wave32", "pfp"}))
      msg += fmt::format("; did you mean '{}'?", *best);
    error(t, std::move(msg));
    return false;
  };
  while (true) {
    if (api == Api::ExecuteIndirect && (c.at_word("draw") || c.at_word("dispatch"))) {
      attr(c.next());
      continue;
    }
    if (!c.accept(TokKind::LBracket)) return true;
    do {
      const Token& t = c.peek();
      if (t.kind != TokKind::Ident) {
        error(t, fmt::format("expected an attribute (wave32 or pfp), found {}", describe(t)));
        return false;
      }
      c.next();
      if (!attr(t)) return false;
    } while (c.accept(TokKind::Comma));
    if (!c.accept(TokKind::RBracket)) {
      error(c.peek(),
            fmt::format("expected ']' after the attributes, found {}", describe(c.peek())));
      return false;
    }
  }
}

bool Parser::check_work_on_queue(const model::WorkCmd& w, const Token& name) {
  const model::Queue* q = current_queue();
  if (!q) return true;
  std::string problem;
  const std::string what = w.kind == WorkKind::IndirectDraw ? "ExecuteIndirect of draws" : w.api;
  switch (q->type) {
    case model::QueueType::Host:
      if (w.kind != WorkKind::Host) {
        problem = fmt::format(
            "{} is not allowed on host queue {}: host queues run Host, Signal "
            "and Wait",
            what, quote(q->name));
      }
      break;
    case model::QueueType::Compute:
      if (is_draw(w.kind)) {
        problem = fmt::format(
            "{} is not allowed on compute queue {}: compute queues run "
            "Dispatch, DispatchX, ExecuteIndirect of dispatches and copies",
            what, quote(q->name));
      } else if (w.pfp_dma) {
        problem = fmt::format(
            "[pfp] is not allowed on compute queue {}: a compute queue has no PFP", quote(q->name));
      }
      [[fallthrough]];
    case model::QueueType::Graphics:
      if (problem.empty() && w.kind == WorkKind::Host) {
        problem = fmt::format("Host work is only allowed on host queues; {} is a {} queue",
                              quote(q->name), queue_word(q->type));
      }
      break;
  }
  if (problem.empty()) return true;
  error(name, std::move(problem));
  return false;
}

}  // namespace syncproof::lang::detail
