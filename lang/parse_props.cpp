// Properties: prove|refute|check visible A -> B [on R] [missing X, ...] | ordered A -> B
// [missing ...] | no-hazards [missing ...] | deadlock-free.
#include <fmt/format.h>

#include "lang/parser.h"
#include "model/events.h"

namespace syncproof::lang::detail {

const model::Command* Parser::command_for(const Token& label) {
  const Symbol* s = lookup(label, NameKind::Command);
  if (!s) return nullptr;
  return &c_.queues[s->queue].commands[s->index];
}

void Parser::parse_property(Cursor& c) {
  const Token& verb = c.next();
  model::Property p;
  p.loc = {line_, verb.col};
  p.expect = verb.text == "prove"    ? model::Expectation::Holds
             : verb.text == "refute" ? model::Expectation::Violated
                                     : model::Expectation::Report;
  const Token& kind = c.peek();
  constexpr model::PropertyKind kKinds[] = {
      model::PropertyKind::Visible, model::PropertyKind::Ordered, model::PropertyKind::NoHazards,
      model::PropertyKind::DeadlockFree};
  std::optional<model::PropertyKind> k;
  std::vector<std::string_view> names;
  for (model::PropertyKind pk : kKinds) {
    names.push_back(model::to_string(pk));
    if (kind.kind == TokKind::Ident && model::to_string(pk) == kind.text) k = pk;
  }
  if (!k) {
    std::string msg =
        kind.kind == TokKind::Ident
            ? fmt::format("unknown property {}", quote(kind.text))
            : fmt::format(
                  "expected a property (visible, ordered, no-hazards or deadlock-free) "
                  "after '{}', found {}",
                  verb.text, describe(kind));
    if (auto best = closest(kind.text, names)) msg += fmt::format("; did you mean '{}'?", *best);
    error(kind, std::move(msg));
    return;
  }
  c.next();
  p.kind = *k;
  bool ok = true;
  const Token* from = nullptr;
  const Token* to = nullptr;
  const Token* on = nullptr;
  if (p.kind == model::PropertyKind::Visible || p.kind == model::PropertyKind::Ordered) {
    from = &c.next();
    if (from->kind != TokKind::Ident) {
      error(*from, fmt::format("expected a command label after '{}', found {}", kind.text,
                               describe(*from)));
      return;
    }
    if (!c.accept(TokKind::Arrow)) {
      error(c.peek(),
            fmt::format("expected '->' after '{}', found {}", from->text, describe(c.peek())));
      return;
    }
    to = &c.next();
    if (to->kind != TokKind::Ident) {
      error(*to, fmt::format("expected a command label after '->', found {}", describe(*to)));
      return;
    }
    p.from = from->text;
    p.to = to->text;
    const bool have_from = command_for(*from) != nullptr;
    const bool have_to = command_for(*to) != nullptr;
    ok = have_from && have_to;
    if (ok && p.from == p.to) {
      error(*to, fmt::format("'{}' needs two different commands", kind.text));
      ok = false;
    }
  }
  if (p.kind == model::PropertyKind::Visible && c.accept_word("on")) {
    on = &c.next();
    if (auto r = resource(*on)) {
      p.resource = *r;
    } else {
      ok = false;
    }
  }
  if (c.at_word("missing")) {
    const Token& m = c.next();
    if (p.kind == model::PropertyKind::DeadlockFree) {
      error(m, "'missing' does not apply to deadlock-free");
      return;
    }
    if (p.expect != model::Expectation::Violated) {
      error(m, "'missing' names what a counterexample must blame: only 'refute' takes it");
      return;
    }
    do {
      const Token& t = c.next();
      if (t.kind != TokKind::Ident) {
        error(t, fmt::format("expected a flag or a command label after '{}', found {}",
                             p.missing.empty() ? "missing" : ",", describe(t)));
        return;
      }
      if (const model::FlagDef* d = model::find_any_flag(t.text)) {
        p.missing.emplace_back(d->name);
      } else if (const model::d3d12::Name* n =
                     model::d3d12::find(model::d3d12::Family::BarrierSync, t.text)) {
        p.missing.emplace_back(n->name);  // a scope a barrier's SYNC_AFTER must hold
      } else if (auto it = names_.find(t.text);
                 it != names_.end() &&
                 (it->second.kind == NameKind::Command || it->second.kind == NameKind::Resource)) {
        p.missing.push_back(t.text);  // a command, or a resource a barrier must name
      } else {
        std::string msg =
            fmt::format("{} after 'missing' is neither a flag nor a command label", quote(t.text));
        if (t.text.size() <= 64) {
          if (auto s = model::suggest_any_flags(t.text, 1); !s.empty()) {
            msg += fmt::format("; did you mean {}?", s.front());
          }
        }
        error(t, std::move(msg));
        ok = false;
      }
    } while (c.accept(TokKind::Comma));
  }
  if (!expect_end(c, fmt::format("the '{}' property", kind.text))) return;
  if (ok && p.kind == model::PropertyKind::Visible) ok = check_visible(p, *from, *to, on);
  if (ok && p.kind == model::PropertyKind::Ordered) ok = check_ordered(*from, *to);
  if (ok) c_.properties.push_back(std::move(p));
}

// `visible A -> B` relates a write of A (work, or the word a bottom-of-pipe value write stores)
// to a read of B of the same memory; anything else is vacuous, which the checker must never
// report as "proved".
bool Parser::check_visible(const model::Property& p, const Token& from, const Token& to,
                           const Token* on) {
  const model::Command* a = command_for(from);
  const model::Command* b = command_for(to);
  const auto* wa = std::get_if<model::WorkCmd>(&a->body);
  const auto* va = std::get_if<model::BopWriteCmd>(&a->body);
  const auto* wb = std::get_if<model::WorkCmd>(&b->body);
  if ((!wa && !va) || !wb) {
    const Token& bad = wa || va ? to : from;
    error(bad, fmt::format("'{}' is not a work command{}: 'visible' relates a command that writes "
                           "memory to one that reads it",
                           bad.text, &bad == &from ? " or a bottom-of-pipe value write" : ""));
    return false;
  }
  // The bytes A writes, as resource-shaped ranges: its accesses' resources, or the value word.
  std::vector<model::Resource> written;
  if (wa) {
    for (const model::Access& x : wa->accesses)
      if (x.write) written.push_back(c_.resources[x.resource]);
  } else {
    model::Resource word;
    word.address = va->address;
    word.size = va->api == model::SyncApi::Write32BitValueBottomOfPipe2X ? 4 : 8;
    written.push_back(word);
  }
  const auto reads = [&](const model::Resource& r) {
    for (const model::Access& x : wb->accesses)
      if (!x.write && overlaps(c_.resources[x.resource], r)) return true;
    return false;
  };
  if (p.resource) {
    const model::Resource& r = c_.resources[*p.resource];
    if (std::none_of(written.begin(), written.end(),
                     [&](const model::Resource& w) { return overlaps(w, r); })) {
      error(*on, fmt::format("'{}' does not write '{}'", p.from, r.name));
      return false;
    }
    if (!reads(r)) {
      error(*on, fmt::format("'{}' does not read '{}'", p.to, r.name));
      return false;
    }
    return true;
  }
  for (const model::Resource& w : written)
    if (reads(w)) return true;
  error(to,
        fmt::format("'{}' writes nothing that '{}' reads: the property is vacuous", p.from, p.to));
  return false;
}

// `ordered A -> B` asks that what A performs on memory (its accesses, and for a sync, a value
// write, a signal or a wait its cache operations, its write, its satisfying poll) is done before
// B begins anything it does to memory (SEMANTICS.md P-ORDERED). A sync whose flags make no cache
// operation does nothing of either kind, and a wait begins nothing the model places in time (its
// polls): a property on them would be vacuous. Standard barriers and fences, whose operations
// depend on the profile and assumptions, are checked when the property is decided.
bool Parser::check_ordered(const Token& from, const Token& to) {
  const auto bare_sync = [](const model::Command& cmd) -> std::optional<std::string_view> {
    if (const auto* s = std::get_if<model::SyncCmd>(&cmd.body)) {
      const bool top = s->api == model::SyncApi::SyncTopOfPipeX;
      if (!model::makes_cache_operations(model::decode_sync(s->flags), top))
        return top ? "SyncTopOfPipeX" : "SyncBottomOfPipeX";
    }
    return std::nullopt;
  };
  const model::Command& a = *command_for(from);
  const model::Command& b = *command_for(to);
  for (const auto& [tok, cmd] : {std::pair<const Token*, const model::Command*>{&from, &a},
                                 std::pair<const Token*, const model::Command*>{&to, &b}})
    if (auto api = bare_sync(*cmd)) {
      error(*tok, fmt::format("'{}' is a {} that makes no cache operation: 'ordered' relates what "
                              "commands do to memory, and it does nothing there (it orders other "
                              "commands)",
                              tok->text, *api));
      return false;
    }
  const auto* wf = std::get_if<model::WaitFenceCmd>(&b.body);
  if (std::holds_alternative<model::WaitValueCmd>(b.body) ||
      (wf && wf->xbox && !model::makes_cache_operations(model::decode_sync(wf->flags), true))) {
    error(to, fmt::format("'{}' is a wait: its polls have no place in time the property could "
                          "order after '{}'; name the command after it",
                          to.text, from.text));
    return false;
  }
  return true;
}

}  // namespace syncproof::lang::detail
