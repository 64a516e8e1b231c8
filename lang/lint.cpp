// Checks that need the whole file: at least one queue, waits that nothing can satisfy, and
// resources that alias each other.
#include <fmt/format.h>

#include <map>

#include "lang/parser.h"
#include "model/wait_value.h"
#include "util/shared_list.h"

namespace syncproof::lang::detail {

void Parser::check_overlap(const model::Resource& r, const Token& name) {
  for (const model::Resource& o : c_.resources) {
    if (!overlaps(r, o)) continue;
    warning(name, fmt::format("{} '{}' overlaps {} '{}' (declared at line {}): the two alias the "
                              "same memory",
                              r.kind == model::ResourceKind::Buffer ? "buffer" : "texture", r.name,
                              o.kind == model::ResourceKind::Buffer ? "buffer" : "texture", o.name,
                              o.loc.line));
    return;
  }
}

void Parser::finish() {
  // A queue declared with an error still counts (its own error says what is wrong).
  const bool any_queue = std::any_of(
      names_.begin(), names_.end(), [](const auto& n) { return n.second.kind == NameKind::Queue; });
  if (!any_queue) {
    line_ = 1;
    report(model::Severity::Error, 1, 1,
           statements_ == 0 ? "empty case file: no queue declared"
                            : "no queue declared: a case needs 'queue NAME graphics|compute|host'");
  }

  // Labels are memory (their value writes are 4/8-byte writes): say when one lies in a
  // resource or another label, so the pairing of those accesses is no surprise.
  for (size_t i = 0; i < c_.labels.size(); ++i) {
    const model::Label& l = c_.labels[i];
    const model::Resource word{l.name, model::ResourceKind::Buffer, l.address, 8, false, l.loc, {},
                               {}};
    line_ = l.loc.line;
    const Token at{TokKind::Ident, l.name, 0, l.loc.col, static_cast<uint32_t>(l.name.size())};
    for (const model::Resource& r : c_.resources)
      if (overlaps(word, r)) {
        warning(at,
                fmt::format("label '{}' lies in {} '{}' (declared at line {}): its value writes "
                            "are writes of that memory",
                            l.name, r.kind == model::ResourceKind::Buffer ? "buffer" : "texture",
                            r.name, r.loc.line));
        break;
      }
    for (size_t j = 0; j < i; ++j) {
      const model::Label& o = c_.labels[j];
      if (l.address < o.address + 8 && o.address < l.address + 8) {
        warning(at, fmt::format("label '{}' overlaps label '{}' (declared at line {})", l.name,
                                o.name, o.loc.line));
        break;
      }
    }
  }

  // Fence waits: something must signal the fence, and reach the value. The signals of every
  // fence are gathered once (a frame has thousands of waits).
  std::map<uint32_t, uint64_t> max_signal;  // per fence signalled: the largest value
  std::vector<const model::BopWriteCmd*> value_writes;
  for (const model::Queue& q : c_.queues)
    for (const model::Command& cmd : q.commands) {
      if (const auto* s = std::get_if<model::SignalCmd>(&cmd.body)) {
        auto [it, fresh] = max_signal.try_emplace(s->fence, s->value);
        if (!fresh) it->second = std::max(it->second, s->value);
      } else if (const auto* b = std::get_if<model::BopWriteCmd>(&cmd.body)) {
        value_writes.push_back(b);
      }
    }
  for (const FenceWait& w : fence_waits_) {
    line_ = w.line;
    const std::string& fence = c_.fences[w.fence].name;
    auto it = max_signal.find(w.fence);
    if (it == max_signal.end()) {
      warning(*w.at, fmt::format("nothing signals fence '{}': this wait never completes", fence));
    } else if (it->second < w.value) {
      warning(*w.at, fmt::format("no Signal of fence '{}' reaches {} (the largest value signalled "
                                 "is {}): this wait never completes",
                                 fence, w.value, it->second));
    }
  }

  // Label waits: something must write the word, with a value that satisfies the comparison as
  // the wait reads it (model/wait_value.h: a 32-bit wait reads the 4 bytes at its Destination).
  // The writers of each word polled are found once.
  struct Word {
    util::SharedList<model::WaitWriter> writers;
    bool wider = false;  // a 64-bit value is written where a 32-bit wait reads half of it
    bool too_many_states = false;
  };
  std::map<std::pair<uint64_t, unsigned>, Word> words;
  for (const LabelWait& w : label_waits_) {
    line_ = w.line;
    auto [it, fresh] = words.try_emplace({w.dest.address, w.bytes});
    Word& found = it->second;
    model::PolledWord word;
    word.parts = static_cast<uint8_t>(w.bytes / 4), word.part_bits = 32;
    word.cmp = w.cmp, word.ref = w.value;
    if (fresh) {
      std::vector<model::WaitWriter> writers;
      for (const model::BopWriteCmd* b : value_writes) {
        const unsigned bytes = b->api == model::SyncApi::Write32BitValueBottomOfPipe2X ? 4 : 8;
        if (auto wr = model::value_writer(w.dest.address, w.bytes, b->address, bytes, b->value,
                                          b->source, 0)) {
          writers.push_back(*wr);
          found.wider = found.wider || bytes > w.bytes;
        }
      }
      found.writers = util::SharedList<model::WaitWriter>(std::move(writers));
      word.writers = found.writers;
      found.too_many_states = model::too_many_poll_states(word);
    }
    word.writers = found.writers;
    word.too_many_states = found.too_many_states;
    const std::string what = w.dest.label ? fmt::format("label '{}'", c_.labels[*w.dest.label].name)
                                          : fmt::format("address {}", w.at->text);
    if (word.writers.empty()) {
      warning(*w.at, fmt::format("nothing writes {}: this wait never completes", what));
    } else if (!model::may_pass_after_a_write(word, {})) {
      warning(*w.at, fmt::format("no value written to {} satisfies {} {}{}: this wait never "
                                 "completes",
                                 what, model::to_string(w.cmp), w.value,
                                 found.wider ? " (a 32-bit wait reads only the low 32 bits of "
                                               "the 64-bit values written there)"
                                             : ""));
    }
  }
  // Barrier pairing and state tracking need every command: only on a file without errors.
  if (errors_ == 0) {
    check_splits();
    check_states();
  }
  line_ = 0;
}

}  // namespace syncproof::lang::detail
