// Flag words: names (with or without their family prefix) and numbers joined by '|'. A name of
// another family, an unknown name, or a number that does not fit 32 bits is a located error;
// problems found by model/validity.h are located at the item that contributes the bits.
#include <fmt/format.h>

#include "lang/parser.h"

namespace syncproof::lang::detail {

namespace {

std::string_view family_word(model::FlagFamily f) {
  switch (f) {
    case model::FlagFamily::Sync:
      return "sync flag";
    case model::FlagFamily::SyncControl:
      return "sync control flag";
    case model::FlagFamily::Dispatch:
      return "dispatch flag";
    case model::FlagFamily::WriteValueBop:
      return "write flag";
    case model::FlagFamily::Comparison:
      return "comparison function";
  }
  return "flag";
}

// Families whose constants have no published numbers: only 0 may be written as a number.
bool names_only(model::FlagFamily f) {
  return f == model::FlagFamily::SyncControl || f == model::FlagFamily::WriteValueBop;
}

}  // namespace

std::optional<FlagWord> Parser::flag_word(Cursor arg, model::FlagFamily family,
                                          std::string_view slot) {
  FlagWord w;
  const Token& first = arg.peek();
  w.col = first.col;
  if (!arg.at_end()) {
    const Token& last = arg.tokens()[arg.end() - 1];
    w.len = last.col + last.len - first.col;
  }
  bool ok = true;
  while (true) {
    const Token& t = arg.peek();
    if (arg.at_end() || (t.kind != TokKind::Ident && t.kind != TokKind::Number)) {
      error(t, fmt::format("expected a {} name or number in {}, found {}", family_word(family),
                           slot, describe(t)));
      return std::nullopt;
    }
    arg.next();
    FlagItem item{&t, 0, nullptr};
    if (t.kind == TokKind::Number) {
      if (t.value > UINT32_MAX) {
        error(t, fmt::format("{} does not fit a 32-bit flag word", t.text));
        ok = false;
      } else if (names_only(family) && t.value != 0) {
        error(t, fmt::format("{} constants have no published values: write them by name",
                             model::family_name(family)));
        ok = false;
      } else {
        item.value = static_cast<uint32_t>(t.value);
      }
    } else if (const model::FlagDef* d = model::find_flag(family, t.text)) {
      item.def = d;
      item.value = d->value.value_or(0);
    } else if (t.text == model::kFlushRangeAllName) {
      error(t, fmt::format("{} is a SizeInBytes value, not a flag: {} takes {}",
                           model::kFlushRangeAllName, slot, model::family_name(family)));
      ok = false;
    } else if (const model::FlagDef* other = model::find_any_flag(t.text)) {
      error(t, fmt::format("{} is a {} constant ({}), not a {}: {} takes {}", quote(t.text),
                           model::family_name(other->family), other->name, family_word(family),
                           slot, model::family_name(family)));
      ok = false;
    } else {
      std::string msg = fmt::format("unknown {} {}", family_word(family), quote(t.text));
      if (t.text.size() <= 64) {
        if (auto s = model::suggest_flags(family, t.text, 1); !s.empty()) {
          msg += fmt::format("; did you mean {}?", s.front());
        }
      }
      error(t, std::move(msg));
      ok = false;
    }
    w.value |= item.value;
    w.items.push_back(item);
    if (arg.at_end()) break;
    if (!arg.accept(TokKind::Pipe)) {
      error(arg.peek(),
            fmt::format("expected '|' between flags in {}, found {}", slot, describe(arg.peek())));
      return std::nullopt;
    }
  }
  if (!ok) return std::nullopt;
  return w;
}

// Each problem goes to the first item contributing its bits, or naming the flag it mentions;
// otherwise to the whole argument.
void Parser::report_problems(const std::vector<model::FlagProblem>& problems, const FlagWord& w) {
  for (const model::FlagProblem& p : problems) {
    uint32_t col = w.col, len = w.len;
    const FlagItem* at = nullptr;
    for (const FlagItem& it : w.items) {
      if (p.bits != 0 && (it.value & p.bits) != 0) {
        at = &it;
        break;
      }
    }
    if (!at) {
      for (const FlagItem& it : w.items) {
        if (it.def && it.def->value.value_or(1) != 0 &&
            p.message.find(it.def->name) != std::string::npos) {
          at = &it;
          break;
        }
      }
    }
    if (at) {
      col = at->tok->col;
      len = at->tok->len;
    }
    report(p.severity, col, len, p.message);
  }
}

// A MARGIN counts as spelled when its name was written, or when a number sets the whole field
// (a value pasted from a capture is exact; only names OR-ed together alias by accident).
model::SpelledMargins Parser::spelled_margins(const FlagWord& w) const {
  model::SpelledMargins m;
  for (const FlagItem& it : w.items) {
    if (it.def) {
      const std::string_view n = it.def->name;
      m.icache |= n == "D3D12XBOX_SYNC_FLAG_ICACHE_MARGIN";
      m.gl1 |= n == "D3D12XBOX_SYNC_FLAG_GL1_MARGIN";
      m.gl2 |= n == "D3D12XBOX_SYNC_FLAG_GL2_MARGIN";
    } else {
      m.icache |= (it.value & model::sync::kIcacheMargin) == model::sync::kIcacheMargin;
      m.gl1 |= (it.value & model::sync::kGl1Margin) == model::sync::kGl1Margin;
      m.gl2 |= (it.value & model::sync::kGl2Margin) == model::sync::kGl2Margin;
    }
  }
  return m;
}

}  // namespace syncproof::lang::detail
