// Declarations: case, profile, assume, target, queue, buffer, texture, fence, label; `on` blocks.
#include <fmt/format.h>

#include "lang/parser.h"
#include "model/assumptions.h"
#include "model/targets.h"

namespace syncproof::lang::detail {

namespace {

bool looks_like_assumption(std::string_view id) {
  if (id.size() < 3 || !id.starts_with("A-")) return false;
  for (char c : id) {
    if (!((c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-')) return false;
  }
  return true;
}

}  // namespace

void Parser::parse_declaration(Cursor& c) {
  const std::string& kw = c.peek().text;
  if (kw == "case") return parse_case_title(c);
  if (kw == "profile") return parse_profile(c);
  if (kw == "assume") return parse_assume(c);
  if (kw == "target") return parse_target(c);
  if (kw == "queue") return parse_queue(c);
  if (kw == "buffer") return parse_resource(c, model::ResourceKind::Buffer);
  if (kw == "texture") return parse_resource(c, model::ResourceKind::Texture);
  if (kw == "fence") return parse_fence(c);
  if (kw == "label") return parse_label(c);
}

std::optional<uint64_t> Parser::number(Cursor& c, std::string_view what) {
  const Token& t = c.peek();
  if (t.kind != TokKind::Number) {
    error(t, fmt::format("expected {} (a number), found {}", what, describe(t)));
    return std::nullopt;
  }
  c.next();
  return t.value;
}

const Token* Parser::new_name(Cursor& c, std::string_view what) {
  const Token& t = c.peek();
  if (t.kind != TokKind::Ident) {
    error(t, fmt::format("expected the {} name, found {}", what, describe(t)));
    return nullptr;
  }
  c.next();
  return &t;
}

void Parser::parse_case_title(Cursor& c) {
  const Token& kw = c.next();
  const Token& t = c.peek();
  if (t.kind != TokKind::String) {
    error(t, fmt::format("expected the case title as a string (case \"TITLE\"), found {}",
                         describe(t)));
    return;
  }
  c.next();
  if (!expect_end(c, "the case title")) return;
  if (case_line_) {
    error(kw, fmt::format("duplicate 'case': the title was given at line {}", case_line_));
    return;
  }
  case_line_ = line_;
  c_.title = t.text;
}

void Parser::parse_profile(Cursor& c) {
  const Token& kw = c.next();
  const Token& t = c.peek();
  if (t.kind != TokKind::Ident) {
    error(t, fmt::format("expected a profile (rdna2 or strict), found {}", describe(t)));
    return;
  }
  c.next();
  if (!model::find_profile(t.text)) {
    std::string msg = fmt::format("unknown profile {}; expected rdna2 or strict", quote(t.text));
    if (auto best = closest(t.text, {"rdna2", "strict"})) {
      msg = fmt::format("unknown profile {}; did you mean '{}'?", quote(t.text), *best);
    }
    error(t, std::move(msg));
    return;
  }
  if (!expect_end(c, "the profile")) return;
  if (c_.profile) {
    error(kw, fmt::format("duplicate 'profile': the profile was given at line {}",
                          c_.profile_loc.line));
    return;
  }
  c_.profile = t.text;
  c_.profile_loc = {line_, t.col};
}

void Parser::parse_assume(Cursor& c) {
  c.next();
  if (c.at_end()) {
    error(c.peek(), "expected '+ID' or '-ID' after 'assume'");
    return;
  }
  std::vector<std::string_view> known;
  for (const model::AssumptionDef& a : model::all_assumptions()) known.push_back(a.name);
  while (!c.at_end()) {
    const Token& sign = c.peek();
    if (sign.kind != TokKind::Plus && sign.kind != TokKind::Minus) {
      error(sign, fmt::format("expected '+ID' or '-ID', found {}", describe(sign)));
      return;
    }
    c.next();
    const Token& id = c.peek();
    if (id.kind != TokKind::Ident) {
      error(id,
            fmt::format("expected an assumption ID after '{}', found {}", sign.text, describe(id)));
      return;
    }
    c.next();
    if (!looks_like_assumption(id.text)) {
      error(id, fmt::format("{} is not an assumption ID: IDs look like A-NAME (upper case, see "
                            "model/SEMANTICS.md)",
                            quote(id.text)));
      continue;
    }
    if (!model::find_assumption(id.text)) {
      std::string msg = fmt::format("unknown assumption {}", quote(id.text));
      if (auto best = closest(id.text, known)) msg += fmt::format("; did you mean '{}'?", *best);
      error(id, std::move(msg));
      continue;
    }
    const bool enable = sign.kind == TokKind::Plus;
    if (auto [it, fresh] = assumption_line_.try_emplace(id.text, line_); !fresh) {
      const auto prev = std::find_if(c_.assumptions.begin(), c_.assumptions.end(),
                                     [&](const auto& a) { return a.id == id.text; });
      if (prev != c_.assumptions.end() && prev->enable != enable) {
        error(sign, fmt::format("{} is both enabled and disabled (also at line {})", id.text,
                                it->second));
      } else {
        warning(sign, fmt::format("{} is already {} at line {}", id.text,
                                  enable ? "enabled" : "disabled", it->second));
      }
      continue;
    }
    c_.assumptions.push_back({enable, id.text, {line_, sign.col}});
  }
}

// `target NAME` (a named console target) or `target KEY VALUE` (one fact on top of it).
void Parser::parse_target(Cursor& c) {
  c.next();
  const Token& key = c.peek();
  std::vector<std::string_view> names;
  for (const model::NamedTarget& t : model::named_targets()) names.push_back(t.name);
  if (key.kind != TokKind::Ident) {
    error(key, fmt::format("expected a target ({}) or a target key (gl2-rb-coherent), found {}",
                           fmt::join(names, ", "), describe(key)));
    return;
  }
  c.next();
  const auto& keys = model::target_keys();
  const bool is_key = std::find(keys.begin(), keys.end(), key.text) != keys.end();
  if (!is_key && (c.at_end() || model::find_target(key.text))) {
    if (!model::find_target(key.text)) {
      std::vector<std::string_view> all = names;
      all.insert(all.end(), keys.begin(), keys.end());
      std::string msg =
          fmt::format("unknown target {} ({})", quote(key.text), fmt::join(names, ", "));
      if (auto best = closest(key.text, all)) msg += fmt::format("; did you mean '{}'?", *best);
      error(key, std::move(msg));
      return;
    }
    if (!expect_end(c, "the target name")) return;
    if (c_.target) {
      error(key, fmt::format("duplicate target name {}: the target is already '{}' (line {})",
                             quote(key.text), *c_.target, c_.target_loc.line));
      return;
    }
    if (!c_.targets.empty()) {
      error(key, fmt::format("'target {}' after a 'target KEY VALUE' line: name the console "
                             "first, then the facts that differ from it",
                             key.text));
      return;
    }
    c_.target = key.text;
    c_.target_loc = {line_, key.col};
    return;
  }
  if (!is_key) {
    std::string msg = fmt::format("unknown target key {}", quote(key.text));
    if (auto best = closest(key.text, keys)) msg += fmt::format("; did you mean '{}'?", *best);
    error(key, std::move(msg));
    return;
  }
  const Token& value = c.peek();
  if (value.kind != TokKind::Ident || (value.text != "yes" && value.text != "no")) {
    error(value, fmt::format("expected yes or no after '{}', found {}", key.text, describe(value)));
    return;
  }
  c.next();
  if (!expect_end(c, "the target value")) return;
  if (auto [it, fresh] = target_line_.try_emplace(key.text, line_); !fresh) {
    error(key,
          fmt::format("duplicate target {}: previous at line {}", quote(key.text), it->second));
    return;
  }
  c_.targets.emplace_back(key.text, value.text);
}

void Parser::parse_queue(Cursor& c) {
  c.next();
  const Token* name = new_name(c, "queue");
  if (!name) return;
  const Token& type = c.peek();
  std::optional<model::QueueType> q;
  if (type.kind == TokKind::Ident) {
    if (type.text == "graphics") q = model::QueueType::Graphics;
    if (type.text == "compute") q = model::QueueType::Compute;
    if (type.text == "host") q = model::QueueType::Host;
  }
  bool ok = true;
  if (!q) {
    std::string msg = fmt::format("expected the queue type (graphics, compute or host), found {}",
                                  describe(type));
    if (type.kind == TokKind::Ident) {
      msg = fmt::format("unknown queue type {}; expected graphics, compute or host",
                        quote(type.text));
      if (auto best = closest(type.text, {"graphics", "compute", "host"})) {
        msg = fmt::format("unknown queue type {}; did you mean '{}'?", quote(type.text), *best);
      }
    }
    error(type, std::move(msg));
    ok = false;
  } else {
    c.next();
    ok = expect_end(c, "the queue type");
  }
  if (!declare(*name, NameKind::Queue, static_cast<uint32_t>(c_.queues.size()), ok) || !ok) return;
  c_.queues.push_back(model::Queue{name->text, *q, {line_, name->col}, {}});
}

void Parser::parse_resource(Cursor& c, model::ResourceKind kind) {
  const Token& kw = c.next();
  const Token* name = new_name(c, kw.text);
  if (!name) return;
  model::Resource r;
  r.name = name->text;
  r.kind = kind;
  r.loc = {line_, name->col};
  bool ok = false;
  const Token& size_tok = c.peek(1);
  if (auto addr = number(c, "the GPU virtual address")) {
    if (auto size = number(c, "the size in bytes")) {
      r.address = *addr;
      r.size = *size;
      ok = true;
      if (kind == model::ResourceKind::Texture && c.accept_word("compressed")) r.compressed = true;
      if (kind == model::ResourceKind::Buffer && c.at_word("compressed")) {
        error(c.peek(), "'compressed' applies to textures only (DCC/HTILE metadata)");
        ok = false;
      } else {
        ok = parse_initial_state(c, r) && expect_end(c, fmt::format("the {} declaration", kw.text));
      }
      if (ok && r.size == 0) {
        error(size_tok, fmt::format("{} {} has size 0", kw.text, quote(r.name)));
        ok = false;
      } else if (ok && r.size - 1 > UINT64_MAX - r.address) {
        error(size_tok,
              fmt::format("{} {} ends beyond the 64-bit address space", kw.text, quote(r.name)));
        ok = false;
      }
    }
  }
  if (!declare(*name, NameKind::Resource, static_cast<uint32_t>(c_.resources.size()), ok) || !ok) {
    return;
  }
  check_overlap(r, *name);
  c_.resources.push_back(std::move(r));
}

void Parser::parse_fence(Cursor& c) {
  c.next();
  const Token* name = new_name(c, "fence");
  if (!name) return;
  const bool ok = expect_end(c, "the fence name");
  if (!declare(*name, NameKind::Fence, static_cast<uint32_t>(c_.fences.size()), ok) || !ok) return;
  c_.fences.push_back(model::Fence{name->text, {line_, name->col}});
}

void Parser::parse_label(Cursor& c) {
  c.next();
  const Token* name = new_name(c, "label");
  if (!name) return;
  const Token& addr_tok = c.peek();
  const std::optional<uint64_t> addr = number(c, "the label's address");
  bool ok = addr && expect_end(c, "the label's address");
  if (ok && *addr > UINT64_MAX - 7) {
    error(addr_tok, fmt::format("label {} at {}: the 8-byte word would pass the end of the 64-bit "
                                "address space",
                                quote(name->text), addr_tok.text));
    ok = false;
  }
  if (!declare(*name, NameKind::Label, static_cast<uint32_t>(c_.labels.size()), ok) || !ok) return;
  c_.labels.push_back(model::Label{name->text, *addr, {line_, name->col}});
}

void Parser::parse_on(Cursor& c) {
  c.next();
  in_block_ = true;  // even a broken `on` line starts a block: its commands are still checked
  block_queue_.reset();
  const Token& name = c.peek();
  if (name.kind != TokKind::Ident) {
    error(name, fmt::format("expected a queue name after 'on', found {}", describe(name)));
    return;
  }
  c.next();
  const Symbol* q = lookup(name, NameKind::Queue);
  if (!c.accept(TokKind::Colon)) {
    error(c.peek(),
          fmt::format("expected ':' after 'on {}', found {}", name.text, describe(c.peek())));
    return;
  }
  if (!expect_end(c, fmt::format("'on {}:'", name.text))) return;
  if (q) {
    block_queue_ = q->index;
    block_starts_[q->index].push_back(static_cast<uint32_t>(c_.queues[q->index].commands.size()));
  }
}

}  // namespace syncproof::lang::detail

namespace syncproof::lang::detail {

// `[state STATES] [layout LAYOUT]` after a resource's size: the state (d3d12.h
// D3D12_RESOURCE_STATES) and, for textures, the layout (D3D12_BARRIER_LAYOUT) it is created in,
// which makes it state-tracked (lang/state_track.cpp).
bool Parser::parse_initial_state(Cursor& c, model::Resource& r) {
  using model::d3d12::Family;
  if (c.at_word("state")) {
    c.next();
    auto w = state_words(c, Family::ResourceState, "the initial state");
    if (!w) return false;
    r.state = w->value;
  }
  if (c.at_word("layout")) {
    const Token& kw = c.next();
    if (r.kind == model::ResourceKind::Buffer) {
      error(kw, "buffers have no layout: 'layout' applies to textures only");
      return false;
    }
    auto w = state_words(c, Family::BarrierLayout, "the initial layout");
    if (!w) return false;
    if (w->value == model::d3d12::kLayout.undefined || model::d3d12::video_layout(w->value)) {
      error(*w->items.front().first,
            fmt::format("a texture cannot be created in layout {}",
                        model::d3d12::describe(Family::BarrierLayout, w->value)));
      return false;
    }
    r.layout = w->value;
    if (r.state && model::state_layout(*r.state) != w->value)
      error(*w->items.front().first,
            fmt::format(
                "layout {} is not the layout of state {} ({})",
                model::d3d12::describe(Family::BarrierLayout, w->value),
                model::d3d12::describe(Family::ResourceState, *r.state),
                model::d3d12::describe(Family::BarrierLayout, model::state_layout(*r.state))));
    if (r.state && model::state_layout(*r.state) != w->value) return false;
  }
  return true;
}

// The words of a declaration up to the next keyword ('layout') or the end of the line.
std::optional<D3dWord> Parser::state_words(Cursor& c, model::d3d12::Family f,
                                           std::string_view slot) {
  size_t end = c.pos();
  while (end < c.end() &&
         !(c.tokens()[end].kind == TokKind::Ident && c.tokens()[end].text == "layout"))
    ++end;
  Cursor sub(c.tokens(), c.pos(), end);
  auto w = d3d12_word(sub, f, slot);
  while (c.pos() < end) c.next();
  return w;
}

}  // namespace syncproof::lang::detail
