// What a value write leaves in the word a wait polls (model/wait_value.h).
#include <doctest/doctest.h>

#include "model/wait_value.h"

using namespace syncproof::model;

TEST_CASE("value_writer: a 64-bit write gives each dword of the word it covers its half") {
  // Little-endian: the low dword lands at the destination, the high one 4 bytes on.
  auto w = value_writer(0x1004, 4, 0x1000, 8, 0x0000000200000001ull, WriteValueSource::Value, 7);
  REQUIRE(w);
  CHECK(w->kind == WaitWriter::Kind::Value);
  CHECK(w->parts == 1);
  CHECK(w->value[0] == 2);
  w = value_writer(0x1000, 8, 0x1000, 8, 0x0000000200000001ull, WriteValueSource::Value, 7);
  REQUIRE(w);
  CHECK(w->parts == 3);
  CHECK(w->value[0] == 1);
  CHECK(w->value[1] == 2);
  CHECK_FALSE(value_writer(0x1008, 4, 0x1000, 8, 1, WriteValueSource::Value, 7));
}

// Found by the libFuzzer target: the linter asks about the waits of a case whose label is not
// 4-byte aligned (its own error), and the dword offset went negative (a shift by 2^64 - 32).
TEST_CASE("value_writer: a misaligned word shares part of a dword, and its value is unknown") {
  auto w = value_writer(0x1000, 8, 0x1007, 8, 0x0000000200000001ull, WriteValueSource::Value, 7);
  REQUIRE(w);
  CHECK(w->kind == WaitWriter::Kind::Work);
  CHECK(w->parts == 2);  // bytes 0x1007.. touch only the dword at 0x1004
  w = value_writer(0x1002, 4, 0x1000, 8, 5, WriteValueSource::Value, 7);
  REQUIRE(w);
  CHECK(w->kind == WaitWriter::Kind::Work);
  CHECK(w->parts == 1);
}
