// The standard barriers, one per line, as the issue and docs/CASE-LANGUAGE.md spell them:
//   ResourceBarrier(TRANSITION, RESOURCE, STATE_BEFORE, STATE_AFTER[, BEGIN_ONLY|END_ONLY])
//   ResourceBarrier(UAV, RESOURCE|NULL)
//   ResourceBarrier(ALIASING, RESOURCE|NULL, RESOURCE|NULL)
//   Barrier(GLOBAL, SYNC_BEFORE, SYNC_AFTER, ACCESS_BEFORE, ACCESS_AFTER)
//   Barrier(BUFFER, RESOURCE, SYNC_BEFORE, SYNC_AFTER, ACCESS_BEFORE, ACCESS_AFTER)
//   Barrier(TEXTURE, RESOURCE, SYNC_BEFORE, SYNC_AFTER, ACCESS_BEFORE, ACCESS_AFTER,
//           LAYOUT_BEFORE, LAYOUT_AFTER[, DISCARD])
// Words are d3d12.h names (model/d3d12.h) with or without their prefix, joined by '|', or
// numbers. What one barrier can be checked for on its own is checked here (queue-type
// compatibility, the specification's sync/access/layout rules); what needs the resource's
// history is the state tracker's (lang/state_track.cpp).
#include <fmt/format.h>

#include "lang/parser.h"
#include "model/d3d12.h"

namespace syncproof::lang::detail {

namespace {

using model::d3d12::Family;
namespace d3d12 = model::d3d12;

std::string_view signature(model::BarrierKind k) {
  switch (k) {
    case model::BarrierKind::Transition:
      return "ResourceBarrier(TRANSITION, RESOURCE, STATE_BEFORE, STATE_AFTER[, "
             "BEGIN_ONLY|END_ONLY])";
    case model::BarrierKind::Uav:
      return "ResourceBarrier(UAV, RESOURCE|NULL)";
    case model::BarrierKind::Aliasing:
      return "ResourceBarrier(ALIASING, RESOURCE|NULL, RESOURCE|NULL)";
    case model::BarrierKind::Global:
      return "Barrier(GLOBAL, SYNC_BEFORE, SYNC_AFTER, ACCESS_BEFORE, ACCESS_AFTER)";
    case model::BarrierKind::Buffer:
      return "Barrier(BUFFER, RESOURCE, SYNC_BEFORE, SYNC_AFTER, ACCESS_BEFORE, ACCESS_AFTER)";
    case model::BarrierKind::Texture:
      return "Barrier(TEXTURE, RESOURCE, SYNC_BEFORE, SYNC_AFTER, ACCESS_BEFORE, ACCESS_AFTER, "
             "LAYOUT_BEFORE, LAYOUT_AFTER[, DISCARD])";
  }
  return "";
}

}  // namespace

// A d3d12.h word: names of family `f` (with or without prefix) and numbers, joined by '|' where
// the family is a mask. Unknown names, names of another family and numbers that do not fit are
// located errors.
std::optional<D3dWord> Parser::d3d12_word(Cursor arg, Family f, std::string_view slot) {
  D3dWord w;
  const Token& first = arg.peek();
  w.col = first.col;
  bool ok = true;
  while (true) {
    const Token& t = arg.peek();
    if (arg.at_end() || (t.kind != TokKind::Ident && t.kind != TokKind::Number)) {
      error(t, fmt::format("expected a {} name or number in {}, found {}", d3d12::type_name(f),
                           slot, describe(t)));
      return std::nullopt;
    }
    arg.next();
    uint32_t v = 0;
    if (t.kind == TokKind::Number) {
      if (t.value > UINT32_MAX) {
        error(t, fmt::format("{} does not fit a 32-bit {}", t.text, d3d12::type_name(f)));
        ok = false;
      }
      v = static_cast<uint32_t>(t.value);
    } else if (const d3d12::Name* n = d3d12::find(f, t.text)) {
      v = n->value;
    } else if (const d3d12::Name* other = d3d12::find_any(t.text)) {
      error(t, fmt::format("{} is a {} constant ({}), not a {}: {} takes {}", quote(t.text),
                           d3d12::type_name(other->family), other->name, d3d12::type_name(f), slot,
                           d3d12::type_name(f)));
      ok = false;
    } else {
      std::string msg = fmt::format("unknown {} {}", d3d12::type_name(f), quote(t.text));
      if (t.text.size() <= 80)
        if (auto s = d3d12::suggest(f, t.text, 1); !s.empty())
          msg += fmt::format("; did you mean {}?", s.front());
      error(t, std::move(msg));
      ok = false;
    }
    w.value |= v;
    w.items.push_back({&t, v});
    w.len = t.col + t.len - w.col;
    if (arg.at_end()) break;
    if (!arg.accept(TokKind::Pipe)) {
      error(arg.peek(),
            fmt::format("expected '|' between names in {}, found {}", slot, describe(arg.peek())));
      return std::nullopt;
    }
    if (!d3d12::is_mask(f)) {
      error(t,
            fmt::format("{} is one value: {} takes a single {}", slot, slot, d3d12::type_name(f)));
      return std::nullopt;
    }
  }
  if (!ok) return std::nullopt;
  return w;
}

// Each item of `w` with bits outside `allowed` is an error: the queue type cannot use it.
bool Parser::check_queue_bits(const D3dWord& w, uint32_t allowed, Family f) {
  const model::Queue* q = current_queue();
  if (!q) return true;
  bool ok = true;
  for (const auto& [tok, v] : w.items) {
    const uint32_t bad = v & ~allowed;
    if (!bad) continue;
    error(*tok, fmt::format("{} cannot be used on {} queue {}", d3d12::describe(f, bad, true),
                            queue_word(q->type), quote(q->name)));
    ok = false;
  }
  return ok;
}

std::optional<uint32_t> Parser::barrier_resource(Cursor arg, bool null_ok, std::string_view slot) {
  const Token& t = arg.peek();
  if (t.kind == TokKind::Ident && t.text == "NULL") {
    if (!single(arg, slot)) return std::nullopt;
    if (null_ok) return kNullResource;
    error(t, fmt::format("{} cannot be NULL here", slot));
    return std::nullopt;
  }
  if (t.kind != TokKind::Ident) {
    error(t, fmt::format("expected {} (a resource{}), found {}", slot, null_ok ? " or NULL" : "",
                         describe(t)));
    return std::nullopt;
  }
  if (!single(arg, slot)) return std::nullopt;
  return resource(t);
}

std::optional<model::CommandBody> Parser::parse_barrier(Cursor& c, Api api, const Token& name) {
  using model::BarrierKind;
  const bool legacy = api == Api::ResourceBarrier;
  const Family type_family = legacy ? Family::ResourceBarrierType : Family::BarrierType;
  // The first argument decides the form (and so the arity).
  const Token& type_tok = c.peek(1);
  std::optional<BarrierKind> kind;
  if (c.peek().kind == TokKind::LParen && type_tok.kind == TokKind::Ident) {
    if (const d3d12::Name* n = d3d12::find(type_family, type_tok.text)) {
      const std::string_view s = d3d12::short_name(type_family, n->value);
      if (legacy)
        kind = s == "TRANSITION" ? BarrierKind::Transition
               : s == "UAV"      ? BarrierKind::Uav
                                 : BarrierKind::Aliasing;
      else
        kind = s == "GLOBAL"   ? BarrierKind::Global
               : s == "BUFFER" ? BarrierKind::Buffer
                               : BarrierKind::Texture;
    }
  }
  if (!kind) {
    if (c.peek().kind != TokKind::LParen) {
      error(c.peek(), fmt::format("expected '(' after {}", name.text));
      return std::nullopt;
    }
    const std::string forms = legacy ? "TRANSITION, UAV or ALIASING" : "GLOBAL, BUFFER or TEXTURE";
    if (type_tok.kind != TokKind::Ident) {
      error(type_tok, fmt::format("expected the barrier type ({}) after '{}(', found {}", forms,
                                  name.text, describe(type_tok)));
    } else {
      std::string msg = fmt::format("unknown {} barrier type {}; expected {}", name.text,
                                    quote(type_tok.text), forms);
      if (const d3d12::Name* other = d3d12::find_any(type_tok.text);
          other && other->family == (legacy ? Family::BarrierType : Family::ResourceBarrierType))
        msg += fmt::format(" ({} is a {} type)", type_tok.text,
                           legacy ? "Barrier" : "ResourceBarrier");
      error(type_tok, std::move(msg));
    }
    return std::nullopt;
  }
  size_t min_args = 0, max_args = 0;
  switch (*kind) {
    case BarrierKind::Transition:
      min_args = 4, max_args = 5;
      break;
    case BarrierKind::Uav:
      min_args = max_args = 2;
      break;
    case BarrierKind::Aliasing:
      min_args = max_args = 3;
      break;
    case BarrierKind::Global:
      min_args = max_args = 5;
      break;
    case BarrierKind::Buffer:
      min_args = max_args = 6;
      break;
    case BarrierKind::Texture:
      min_args = 8, max_args = 9;
      break;
  }
  std::optional<std::vector<Cursor>> args =
      call_args(c, name, signature(*kind), min_args, max_args);
  if (!args) return std::nullopt;
  const model::Queue* q = current_queue();
  if (q && q->type == model::QueueType::Host) {
    error(name, fmt::format("{} is not allowed on host queue {}: it is a GPU command-list API",
                            name.text, quote(q->name)));
    return std::nullopt;
  }
  if (!single((*args)[0], "the barrier type")) return std::nullopt;
  model::BarrierCmd b;
  b.kind = *kind;
  for (const Cursor& a : *args) {
    const Token& last = a.tokens()[a.end() > a.pos() ? a.end() - 1 : a.pos()];
    b.arg_spans.push_back({a.peek().col, last.col + last.len - a.peek().col});
  }
  return legacy ? parse_resource_barrier(*args, b) : parse_enhanced_barrier(*args, b);
}

std::optional<model::CommandBody> Parser::parse_resource_barrier(std::vector<Cursor>& args,
                                                                 model::BarrierCmd b) {
  using model::BarrierKind;
  const model::Queue* q = current_queue();
  if (b.kind == BarrierKind::Uav || b.kind == BarrierKind::Aliasing) {
    auto r = barrier_resource(args[1], true,
                              b.kind == BarrierKind::Uav ? "RESOURCE" : "RESOURCE_BEFORE");
    std::optional<uint32_t> after;
    if (b.kind == BarrierKind::Aliasing) after = barrier_resource(args[2], true, "RESOURCE_AFTER");
    if (!r || (b.kind == BarrierKind::Aliasing && !after)) return std::nullopt;
    if (*r != kNullResource) b.resource = *r;
    if (after && *after != kNullResource) b.resource_after = *after;
    return b;
  }
  auto r = barrier_resource(args[1], false, "RESOURCE");
  auto before = d3d12_word(args[2], Family::ResourceState, "STATE_BEFORE");
  auto after = d3d12_word(args[3], Family::ResourceState, "STATE_AFTER");
  std::optional<D3dWord> flags;
  if (args.size() > 4) {
    flags = d3d12_word(args[4], Family::ResourceBarrierFlag, "Flags");
    if (!flags) return std::nullopt;
  }
  if (!r || !before || !after) return std::nullopt;
  b.resource = *r;
  b.state_before = before->value, b.state_after = after->value;
  if (flags) {
    b.flags = flags->value;
    const uint32_t split = model::d3d12::kFlag.begin_only | model::d3d12::kFlag.end_only;
    if ((b.flags & split) == split) {
      error(*flags->items.front().first,
            "BEGIN_ONLY and END_ONLY together: a split barrier's "
            "halves are two ResourceBarrier calls");
      return std::nullopt;
    }
    if (b.flags & ~split) {
      error(*flags->items.front().first,
            fmt::format("unknown D3D12_RESOURCE_BARRIER_FLAGS bits {}",
                        model::d3d12::describe(Family::ResourceBarrierFlag, b.flags & ~split)));
      return std::nullopt;
    }
  }
  bool ok = true;
  if (q) {
    const uint32_t allowed = model::queue_states(q->type);
    ok = check_queue_bits(*before, allowed, Family::ResourceState) && ok;
    ok = check_queue_bits(*after, allowed, Family::ResourceState) && ok;
  }
  if (!ok) return std::nullopt;
  if (b.state_before == b.state_after && !(b.flags)) {
    const Token& t = *after->items.front().first;
    warning(t, fmt::format("STATE_BEFORE and STATE_AFTER are both {}: the transition does "
                           "nothing (a UAV barrier is ResourceBarrier(UAV, ...))",
                           model::d3d12::describe(Family::ResourceState, b.state_after)));
  }
  return b;
}

std::optional<model::CommandBody> Parser::parse_enhanced_barrier(std::vector<Cursor>& args,
                                                                 model::BarrierCmd b) {
  using model::BarrierKind;
  namespace k = model::d3d12;
  const model::Queue* q = current_queue();
  size_t i = 1;
  std::optional<uint32_t> r;
  if (b.kind != BarrierKind::Global) {
    r = barrier_resource(args[i++], false, "RESOURCE");
    if (!r) return std::nullopt;
    const model::Resource& res = c_.resources[*r];
    const bool texture = res.kind == model::ResourceKind::Texture;
    if (!texture && b.kind == BarrierKind::Texture && args.size() == 9) {
      error(args[8].peek(), fmt::format("DISCARD on buffer {}: buffers have no layout and no "
                                        "metadata to discard (use Barrier(BUFFER, ...))",
                                        quote(res.name)));
      return std::nullopt;
    }
    if (texture != (b.kind == BarrierKind::Texture)) {
      error(args[1].peek(), fmt::format("Barrier({}, ...) names {} {}: use Barrier({}, ...)",
                                        to_string(b.kind), texture ? "texture" : "buffer",
                                        quote(res.name), texture ? "TEXTURE" : "BUFFER"));
      return std::nullopt;
    }
    b.resource = *r;
  }
  auto sb = d3d12_word(args[i], Family::BarrierSync, "SYNC_BEFORE");
  auto sa = d3d12_word(args[i + 1], Family::BarrierSync, "SYNC_AFTER");
  auto ab = d3d12_word(args[i + 2], Family::BarrierAccess, "ACCESS_BEFORE");
  auto aa = d3d12_word(args[i + 3], Family::BarrierAccess, "ACCESS_AFTER");
  std::optional<D3dWord> lb, la, discard;
  if (b.kind == BarrierKind::Texture) {
    lb = d3d12_word(args[i + 4], Family::BarrierLayout, "LAYOUT_BEFORE");
    la = d3d12_word(args[i + 5], Family::BarrierLayout, "LAYOUT_AFTER");
    if (args.size() > i + 6) {
      discard = d3d12_word(args[i + 6], Family::TextureBarrierFlag, "Flags");
      if (!discard) return std::nullopt;
    }
    if (!lb || !la) return std::nullopt;
  }
  if (!sb || !sa || !ab || !aa) return std::nullopt;
  b.sync_before = sb->value, b.sync_after = sa->value;
  b.access_before = ab->value, b.access_after = aa->value;
  if (lb) b.layout_before = lb->value, b.layout_after = la->value;
  if (discard) b.discard = (discard->value & k::kFlag.discard) != 0;
  bool ok = true;
  if (discard && (discard->value & ~k::kFlag.discard)) {
    error(*discard->items.front().first,
          fmt::format("unknown D3D12_TEXTURE_BARRIER_FLAGS bits {}",
                      k::describe(Family::TextureBarrierFlag, discard->value & ~k::kFlag.discard)));
    ok = false;
  }
  if (q) {
    ok = check_queue_bits(*sb, model::queue_syncs(q->type), Family::BarrierSync) && ok;
    ok = check_queue_bits(*sa, model::queue_syncs(q->type), Family::BarrierSync) && ok;
    ok = check_queue_bits(*ab, model::queue_accesses(q->type), Family::BarrierAccess) && ok;
    ok = check_queue_bits(*aa, model::queue_accesses(q->type), Family::BarrierAccess) && ok;
    for (const auto* l : {&lb, &la})
      if (*l && !model::queue_layout(q->type, (*l)->value)) {
        error(*(*l)->items.front().first,
              fmt::format("{} cannot be used on {} queue {}",
                          k::describe(Family::BarrierLayout, (*l)->value, true),
                          queue_word(q->type), quote(q->name)));
        ok = false;
      }
  }
  // SPLIT is a whole value, and only one side of a barrier is split.
  for (const auto* w : {&*sb, &*sa})
    if ((w->value & k::kSync.split) && w->value != k::kSync.split) {
      error(*w->items.front().first, "D3D12_BARRIER_SYNC_SPLIT must be the only bit of its sync");
      ok = false;
    }
  if (b.sync_before == k::kSync.split && b.sync_after == k::kSync.split) {
    error(*sa->items.front().first,
          "SYNC_BEFORE and SYNC_AFTER are both SPLIT: a split barrier's halves are two calls "
          "(SYNC_AFTER = SPLIT begins it, SYNC_BEFORE = SPLIT ends it)");
    ok = false;
  }
  if (!ok) return std::nullopt;
  check_enhanced_rules(b, *sb, *sa, *ab, *aa, la ? &*la : nullptr);
  return b;
}

// The specification's rules one barrier can break on its own (warnings: the debug layer's).
void Parser::check_enhanced_rules(const model::BarrierCmd& b, const D3dWord& sb, const D3dWord& sa,
                                  const D3dWord& ab, const D3dWord& aa, const D3dWord* la) {
  namespace k = model::d3d12;
  const struct {
    const D3dWord& sync;
    const D3dWord& access;
    const char* side;
  } sides[] = {{sb, ab, "BEFORE"}, {sa, aa, "AFTER"}};
  for (const auto& s : sides) {
    const uint32_t sync = s.sync.value, access = s.access.value;
    if (sync == k::kSync.none && access != k::kAccess.no_access) {
      warning(
          *s.access.items.front().first,
          fmt::format("SYNC_{} is NONE, so ACCESS_{} must be NO_ACCESS (D3D12_BARRIER_SYNC_NONE "
                      "means no work {} the barrier touches the resource)",
                      s.side, s.side, s.side[0] == 'B' ? "before" : "after"));
      continue;
    }
    if ((access & k::kAccess.no_access) && access != k::kAccess.no_access) {
      warning(*s.access.items.front().first,
              fmt::format("NO_ACCESS must be the only bit of ACCESS_{}", s.side));
      continue;
    }
    if (sync == k::kSync.split || sync == k::kSync.none) continue;
    if (const uint32_t bad = model::incompatible_accesses(access, sync))
      warning(*s.access.items.front().first,
              fmt::format("{} does not go with SYNC_{} {}: the specification's \"Access Bits "
                          "Barrier Sync Compatibility\" needs one of its sync scopes",
                          k::describe(k::Family::BarrierAccess, bad, true), s.side,
                          k::describe(k::Family::BarrierSync, sync)));
  }
  if (ab.value == k::kAccess.common)
    warning(*ab.items.front().first,
            "ACCESS_BEFORE COMMON stands for every write access: it may flush every cache (name "
            "the accesses the earlier work made)");
  if (la && b.layout_after != k::kLayout.undefined) {
    const uint32_t allowed = model::layout_accesses(b.layout_after);
    const uint32_t access = aa.value;
    if (access != k::kAccess.no_access && access != k::kAccess.common && (access & ~allowed))
      warning(*aa.items.front().first,
              fmt::format("{} is not an access LAYOUT_AFTER {} allows",
                          k::describe(k::Family::BarrierAccess, access & ~allowed, true),
                          k::describe(k::Family::BarrierLayout, b.layout_after)));
  }
  if (b.discard && la && b.layout_before != k::kLayout.undefined)
    warning(*la->items.front().first,
            "DISCARD needs LAYOUT_BEFORE UNDEFINED (the specification: a discard initializes the "
            "metadata of a texture whose contents are undefined)");
}

}  // namespace syncproof::lang::detail
