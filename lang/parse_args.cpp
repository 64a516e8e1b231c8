// Arguments of the call-form commands: splitting `( ... )` into arguments, and the argument
// kinds (values, Destination, comparison, fence, BaseAddress/SizeInBytes).
#include <fmt/format.h>

#include "lang/parser.h"

namespace syncproof::lang::detail {

namespace {

std::string hex(uint64_t v) {
  return fmt::format("0x{:X}", v);
}

// The name of argument `i` in a signature "Api(A, B[, C])".
std::string arg_name(std::string_view sig, size_t i) {
  std::string_view rest = sig.substr(sig.find('(') + 1);
  for (size_t k = 0;; ++k) {
    while (!rest.empty() && (rest[0] == ' ' || rest[0] == '[' || rest[0] == ','))
      rest.remove_prefix(1);
    const size_t end = rest.find_first_of(",[)");
    if (k == i) return std::string(rest.substr(0, end));
    if (end == std::string_view::npos) return "argument";
    rest.remove_prefix(end);
  }
}

}  // namespace

// `( ARG, ARG, ... )` with min..max arguments; an empty argument is a missing one.
std::optional<std::vector<Cursor>> Parser::call_args(Cursor& c, const Token& name,
                                                     std::string_view sig, size_t min_args,
                                                     size_t max_args, bool last) {
  if (!c.accept(TokKind::LParen)) {
    error(c.peek(), fmt::format("expected '(' after {}: {}", name.text, sig));
    return std::nullopt;
  }
  std::vector<Cursor> args;
  const std::vector<Token>& toks = c.tokens();
  size_t start = c.pos();
  size_t i = start;
  while (toks[i].kind != TokKind::RParen) {  // check_brackets guarantees a ')'
    if (toks[i].kind == TokKind::Comma) {
      args.emplace_back(toks, start, i);
      start = i + 1;
    }
    ++i;
  }
  if (i > c.pos()) args.emplace_back(toks, start, i);
  while (c.pos() <= i) c.next();
  for (size_t k = 0; k < args.size(); ++k) {
    if (args[k].at_end() && k < max_args) {
      error(args[k].peek(), fmt::format("missing argument {}: {}", arg_name(sig, k), sig));
      return std::nullopt;
    }
  }
  if (args.size() < min_args) {
    error(toks[i], fmt::format("missing argument {}: {}", arg_name(sig, args.size()), sig));
    return std::nullopt;
  }
  if (args.size() > max_args) {
    error(args[max_args].peek(), fmt::format("too many arguments: {}", sig));
    return std::nullopt;
  }
  if (last && !expect_end(c, fmt::format("the end of {}(...)", name.text))) return std::nullopt;
  return args;
}

bool Parser::single(Cursor arg, std::string_view what) {
  if (arg.size() <= 1) return true;
  error(arg.peek(1), fmt::format("unexpected {} after {}", describe(arg.peek(1)), what));
  return false;
}

std::optional<uint64_t> Parser::value_arg(Cursor arg, std::string_view what, bool is32) {
  const Token& t = arg.peek();
  if (t.kind != TokKind::Number) {
    error(t, fmt::format("expected {} (a number), found {}", what, describe(t)));
    return std::nullopt;
  }
  if (!single(arg, what)) return std::nullopt;
  if (is32 && t.value > UINT32_MAX) {
    error(t, fmt::format("{} {} does not fit 32 bits", what, t.text));
    return std::nullopt;
  }
  return t.value;
}

std::optional<Destination> Parser::destination_arg(Cursor arg) {
  const Token& t = arg.peek();
  if (t.kind != TokKind::Number && t.kind != TokKind::Ident) {
    error(t, fmt::format("expected Destination (a label or an address), found {}", describe(t)));
    return std::nullopt;
  }
  if (!single(arg, "Destination")) return std::nullopt;
  Destination d;
  if (t.kind == TokKind::Ident) {
    const Symbol* s = lookup(t, NameKind::Label);
    if (!s) return std::nullopt;
    d.label = s->index;
    d.address = c_.labels[s->index].address;
    return d;
  }
  d.address = t.value;
  bool inside = false;  // the high dword of a label (its address + 4) is a label word too
  for (size_t i = 0; i < c_.labels.size(); ++i) {
    if (c_.labels[i].address == t.value) d.label = static_cast<uint32_t>(i);
    inside = inside || (t.value >= c_.labels[i].address && t.value - c_.labels[i].address < 8);
  }
  if (!inside) {
    warning(t, fmt::format("Destination {} is not the address of a declared label", t.text));
  }
  return d;
}

std::optional<model::Comparison> Parser::comparison_arg(Cursor arg) {
  const Token& t = arg.peek();
  if (t.kind != TokKind::Ident) {
    error(t, fmt::format("expected a comparison (D3D12_COMPARISON_FUNC_*), found {}", describe(t)));
    return std::nullopt;
  }
  if (!single(arg, "the comparison")) return std::nullopt;
  std::string_view name = t.text;
  if (name.starts_with("D3D12_COMPARISON_FUNC_")) name.remove_prefix(22);
  for (int i = 0; i <= static_cast<int>(model::Comparison::Always); ++i) {
    const auto c = static_cast<model::Comparison>(i);
    if (model::to_string(c) == name) return c;
  }
  std::string msg = fmt::format("unknown comparison function {}", quote(t.text));
  if (t.text.size() <= 64) {
    if (auto s = model::suggest_flags(model::FlagFamily::Comparison, t.text, 1); !s.empty()) {
      msg += fmt::format("; did you mean {}?", s.front());
    }
  }
  error(t, std::move(msg));
  return std::nullopt;
}

std::optional<uint32_t> Parser::fence_arg(Cursor arg) {
  const Token& t = arg.peek();
  const Symbol* s = lookup(t, NameKind::Fence);
  if (s && !single(arg, "the fence")) return std::nullopt;
  if (!s) return std::nullopt;
  return s->index;
}

// BaseAddress: a number or a resource (its address); SizeInBytes: a number, a resource (its
// size) or D3D12XBOX_FLUSH_RANGE_ALL. Whole memory is `0, D3D12XBOX_FLUSH_RANGE_ALL`.
std::optional<model::SyncRange> Parser::range_args(Cursor base, Cursor size) {
  const Token& b = base.peek();
  const Token& s = size.peek();
  std::optional<uint64_t> base_v, size_v;
  bool all = false;
  if (!single(base, "BaseAddress")) {
  } else if (b.kind == TokKind::Number) {
    base_v = b.value;
  } else if (b.kind == TokKind::Ident) {
    if (auto r = resource(b)) base_v = c_.resources[*r].address;
  } else {
    error(b, fmt::format("expected BaseAddress (a number or a resource), found {}", describe(b)));
  }
  if (!single(size, "SizeInBytes")) {
  } else if (s.kind == TokKind::Number) {
    size_v = s.value;
  } else if (s.kind == TokKind::Ident && s.text == model::kFlushRangeAllName) {
    all = true;
    size_v = 0;
  } else if (s.kind == TokKind::Ident) {
    if (auto r = resource(s)) size_v = c_.resources[*r].size;
  } else {
    error(s, fmt::format("expected SizeInBytes (a number, a resource or {}), found {}",
                         model::kFlushRangeAllName, describe(s)));
  }
  if (!base_v || !size_v) return std::nullopt;
  if (all && *base_v != 0) {
    error(s, fmt::format("{} needs BaseAddress 0 (whole memory), not {}", model::kFlushRangeAllName,
                         b.text));
    return std::nullopt;
  }
  if (all) return model::SyncRange{true, 0, 0};
  if (*size_v == 0) {
    warning(s, "SizeInBytes 0: the range is empty");
  } else if (*size_v - 1 > UINT64_MAX - *base_v) {
    error(s, fmt::format("the range {} + {} ends beyond the 64-bit address space", hex(*base_v),
                         hex(*size_v)));
    return std::nullopt;
  }
  return model::SyncRange{false, *base_v, *size_v};
}

}  // namespace syncproof::lang::detail
