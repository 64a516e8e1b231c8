#pragma once
// Checking a case with the SMT engine: lower it once, encode it once, then ask one question per
// obligation (push / assert the violation / check / pop), replaying every counterexample through
// the property's concrete monitor before reporting it.
#include <optional>
#include <string>
#include <vector>

#include "model/assumptions.h"
#include "model/case.h"
#include "properties/verdict.h"

namespace syncproof::encode {

struct CheckOptions {
  std::optional<model::Profile> profile;             // --profile
  std::vector<std::pair<bool, std::string>> assume;  // --assume +ID / -ID
  unsigned timeout_ms = 20000;                       // per solver question
  std::optional<std::string> dump_dir;               // --dump-smt2 DIR
};

struct PropertyResult {
  size_t property;  // index into Case::properties
  properties::Verdict verdict;
  double ms = 0;
  bool as_expected = false;
};

struct CaseResult {
  model::ModelConfig config;
  std::vector<PropertyResult> results;
  double ms = 0;
  size_t events = 0, constraints = 0;
};

CaseResult check_case(const model::Case& c, const CheckOptions& o);

// Whether a verdict is what the property line asked for (prove: proved; refute: violated and
// the explanation names every `missing` flag; check: anything).
bool as_expected(const model::Property& p, const properties::Verdict& v);

}  // namespace syncproof::encode
