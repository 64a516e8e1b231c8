#pragma once
// The changes of a fix as edits of the case file's text, so that the file keeps its spelling,
// comments and layout: a flag word gets ` | NAME` appended (or becomes NAME where it was NONE),
// a removed flag is taken out of its word, a new command is a new line with the indentation of
// the command it goes before, a removed sync's line goes. Flag names follow the file: with their
// D3D12XBOX_ prefix where the word (or, for a new line, the file) spells them so.
#include <optional>
#include <string>
#include <vector>

#include "properties/verdict.h"
#include "synth/changes.h"

namespace syncproof::synth {

// A file's text as lines (without their line breaks) and whether it ended with one.
struct SourceText {
  std::vector<std::string> lines;
  bool final_newline = true;
};
SourceText split_source(const std::string& text);
std::string join_source(const SourceText& s);

// The text edits for `changes` of the case read from `lines`; nullopt with *error when a command
// cannot be found in its line (a JSON command stream has no case-language lines).
std::optional<std::vector<properties::SourceEdit>> source_edits(
    const model::Case& orig, const std::vector<std::string>& lines,
    const std::vector<Change>& changes, std::string* error);

// The lines with the edits made. A `len` of the line's length + 1 at column 1 deletes the line.
std::vector<std::string> apply_source_edits(const std::vector<std::string>& lines,
                                            const std::vector<properties::SourceEdit>& edits);

// `diff -u` of two versions of `path` (a/ and b/ prefixes, `context` lines around each change);
// "" when they are equal.
std::string unified_diff(const std::string& path, const std::vector<std::string>& a,
                         const std::vector<std::string>& b, size_t context = 3);

}  // namespace syncproof::synth
