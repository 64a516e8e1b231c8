#pragma once
// Exit codes of the syncproof command line, one table for every subcommand (README documents it).
namespace syncproof::cli {

enum class Exit : int {
  Ok = 0,             // lint: clean; check: every property came out as expected
  Warnings = 1,       // lint: warnings only
  InputError = 2,     // a case file has errors (lint or check): no verdict is given for it
  Unreadable = 3,     // an input could not be read (missing file, directory without cases)
  NotAsExpected = 4,  // check: a property is proved/violated against its expectation
  Unknown = 5,  // check: a solver gave up (timeout/unknown) on a property that expected a verdict
  Disagreement = 6,  // check --engine both: the SMT engine and the executor disagree
  Usage = 64,        // bad command line
  Internal = 70,     // an internal error (a bug): an engine threw
  CannotWrite = 73,  // an output (--output, --trace-out, export) could not be written
};

}  // namespace syncproof::cli
