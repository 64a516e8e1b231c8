// Memory accesses of work: `reads|writes RESOURCE as KIND [in STAGE]`, checked against the
// direction, the work and the stage (the table of docs/CASE-LANGUAGE.md).
#include <fmt/format.h>

#include "lang/parser.h"

namespace syncproof::lang::detail {

namespace {

using model::AccessKind;
using model::Stage;
using model::WorkKind;

constexpr AccessKind kAllKinds[] = {
    AccessKind::Srv,   AccessKind::Cbv,      AccessKind::Uav,        AccessKind::Vertex,
    AccessKind::Index, AccessKind::Indirect, AccessKind::ShaderCode, AccessKind::Rt,
    AccessKind::Depth, AccessKind::CopySrc,  AccessKind::CopyDst,    AccessKind::Streamout,
    AccessKind::Host};
constexpr Stage kAllStages[] = {Stage::Vs, Stage::Ps,  Stage::Cs,
                                Stage::Cp, Stage::Dma, Stage::Host};

bool is_dispatch(WorkKind w) {
  return w == WorkKind::Dispatch || w == WorkKind::IndirectDispatch;
}
using model::can_read;
using model::can_write;
using model::fixed_stage;
using model::shader_kind;

}  // namespace

// ACCESSES: `reads|writes RESOURCE as KIND [in STAGE]`, comma-separated, at least one.
bool Parser::parse_accesses(Cursor& c, model::WorkCmd& w, const Token& name) {
  if (c.at_end()) {
    error(c.peek(),
          fmt::format("{} needs at least one access: 'reads|writes RESOURCE as KIND'", name.text));
    return false;
  }
  bool ok = true;
  while (true) {
    const Token& dir = c.peek();
    if (!c.accept_word("reads") && !c.accept_word("writes")) {
      error(dir, fmt::format("expected 'reads' or 'writes', found {}", describe(dir)));
      return false;
    }
    const Token& res = c.next();
    const std::optional<uint32_t> r = resource(res);
    if (res.kind != TokKind::Ident) return false;  // reported by resource()
    if (!c.accept_word("as")) {
      error(c.peek(), fmt::format("expected 'as KIND' after '{} {}', found {}", dir.text, res.text,
                                  describe(c.peek())));
      return false;
    }
    const Token& kind_tok = c.peek();
    std::optional<AccessKind> kind;
    for (AccessKind k : kAllKinds) {
      if (kind_tok.kind == TokKind::Ident && model::to_string(k) == kind_tok.text) kind = k;
    }
    if (!kind) {
      std::vector<std::string_view> names;
      for (AccessKind k : kAllKinds) names.push_back(model::to_string(k));
      std::string msg = kind_tok.kind == TokKind::Ident
                            ? fmt::format("unknown access kind {}", quote(kind_tok.text))
                            : fmt::format("expected an access kind, found {}", describe(kind_tok));
      if (auto best = closest(kind_tok.text, names))
        msg += fmt::format("; did you mean '{}'?", *best);
      error(kind_tok, std::move(msg));
      return false;
    }
    c.next();
    const Token* stage = nullptr;
    if (c.accept_word("in")) {
      stage = &c.peek();
      if (stage->kind != TokKind::Ident) {
        error(*stage, fmt::format("expected a stage (vs, ps or cs), found {}", describe(*stage)));
        return false;
      }
      c.next();
    }
    model::Access a{dir.text == "writes", *kind, r.value_or(0), Stage::Ps, {line_, dir.col}};
    if (!r || !check_access(w, a, kind_tok, stage)) ok = false;
    w.accesses.push_back(a);
    if (c.at_end()) return ok;
    if (!c.accept(TokKind::Comma)) {
      error(c.peek(), fmt::format("expected ',' or the end of the line after an access, found {}",
                                  describe(c.peek())));
      return false;
    }
    if (c.at_end()) {
      error(c.peek(), "expected another access after ','");
      return false;
    }
  }
}

bool Parser::check_access(const model::WorkCmd& w, model::Access& a, const Token& kind_tok,
                          const Token* stage) {
  const std::string_view kind = kind_tok.text;
  if (a.write && !can_write(a.kind)) {
    error(kind_tok,
          fmt::format("'{}' is a read-only access kind: 'writes ... as {}' is not allowed", kind,
                      kind));
    return false;
  }
  if (!a.write && !can_read(a.kind)) {
    error(kind_tok,
          fmt::format("'{}' is a write-only access kind: 'reads ... as {}' is not allowed", kind,
                      kind));
    return false;
  }
  const bool draw_only = a.kind == AccessKind::Rt || a.kind == AccessKind::Depth ||
                         a.kind == AccessKind::Streamout || a.kind == AccessKind::Vertex ||
                         a.kind == AccessKind::Index;
  const bool copy_kind = a.kind == AccessKind::CopySrc || a.kind == AccessKind::CopyDst;
  std::string problem;
  if (w.kind == WorkKind::Host && a.kind != AccessKind::Host) {
    problem = "Host work accesses memory 'as host' only";
  } else if (a.kind == AccessKind::Host && w.kind != WorkKind::Host) {
    problem = "'host' accesses belong to Host work on a host queue";
  } else if (w.kind == WorkKind::Copy && !copy_kind) {
    problem = fmt::format("{} accesses memory as copy-src or copy-dst only", w.api);
  } else if (copy_kind && w.kind != WorkKind::Copy) {
    problem = fmt::format(
        "'{}' is for copies only (CopyBufferRegion, CopyResource, "
        "CopyTextureRegion)",
        kind);
  } else if (draw_only && !is_draw(w.kind)) {
    problem = fmt::format("'{}' is a draw-only access kind: a dispatch cannot use it", kind);
  } else if (a.kind == AccessKind::Indirect && w.kind != WorkKind::IndirectDraw &&
             w.kind != WorkKind::IndirectDispatch) {
    problem = "'indirect' arguments are read by ExecuteIndirect only (write 'args BUFFER')";
  }
  if (!problem.empty()) {
    error(kind_tok, std::move(problem));
    return false;
  }
  a.stage =
      shader_kind(a.kind) ? (is_dispatch(w.kind) ? Stage::Cs : Stage::Ps) : fixed_stage(a.kind);
  if (!stage) return true;
  std::optional<Stage> s;
  for (Stage st : kAllStages) {
    if (model::to_string(st) == stage->text) s = st;
  }
  if (!s) {
    std::string msg = fmt::format("unknown stage {}; expected vs, ps or cs", quote(stage->text));
    if (auto best = closest(stage->text, {"vs", "ps", "cs"})) {
      msg = fmt::format("unknown stage {}; did you mean '{}'?", quote(stage->text), *best);
    }
    error(*stage, std::move(msg));
    return false;
  }
  if (shader_kind(a.kind)) {
    const bool fits = is_dispatch(w.kind) ? *s == Stage::Cs : (*s == Stage::Vs || *s == Stage::Ps);
    if (!fits) {
      error(*stage, is_dispatch(w.kind)
                        ? fmt::format("stage '{}' is not a dispatch stage: dispatches run in cs",
                                      stage->text)
                        : fmt::format("stage '{}' is not a draw stage: use vs or ps", stage->text));
      return false;
    }
    a.stage = *s;
    return true;
  }
  if (*s != a.stage) {
    error(*stage,
          fmt::format("'{}' {} happen in {}: 'in {}' is not allowed", kind,
                      a.write ? "writes" : "reads", model::to_string(a.stage), stage->text));
    return false;
  }
  return true;
}

}  // namespace syncproof::lang::detail
