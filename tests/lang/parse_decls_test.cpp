// Every declaration form, parsed into the right AST values.
#include <doctest/doctest.h>

#include "lang_test_util.h"

namespace syncproof::lang {

using test::diags;
using test::only;
using test::parse;

TEST_CASE("case, profile, assume, target") {
  ParseResult r = parse(
      "case \"A \\\"title\\\"\"\n"
      "profile strict\n"
      "assume +A-BOP-FIFO -A-WAVE-END-STORES-IN-GL2\n"
      "target xbox-series-s\n"
      "target gl2-rb-coherent yes\n"
      "queue q graphics\n");
  REQUIRE(diags(r) == "");
  CHECK(r.c.file == "t.sync");
  CHECK(r.c.lines.size() == 6);
  CHECK(r.c.lines[1] == "profile strict");
  CHECK(r.c.title == "A \"title\"");
  REQUIRE(r.c.profile);
  CHECK(*r.c.profile == "strict");
  CHECK(r.c.profile_loc.line == 2);
  CHECK(r.c.profile_loc.col == 9);
  REQUIRE(r.c.assumptions.size() == 2);
  CHECK(r.c.assumptions[0].enable);
  CHECK(r.c.assumptions[0].id == "A-BOP-FIFO");
  CHECK(r.c.assumptions[0].loc.line == 3);
  CHECK(r.c.assumptions[0].loc.col == 8);
  CHECK(!r.c.assumptions[1].enable);
  CHECK(r.c.assumptions[1].id == "A-WAVE-END-STORES-IN-GL2");
  REQUIRE(r.c.target);
  CHECK(*r.c.target == "xbox-series-s");
  CHECK(r.c.target_loc.line == 4);
  CHECK(r.c.target_loc.col == 8);
  REQUIRE(r.c.targets.size() == 1);
  CHECK(r.c.targets[0] == std::pair<std::string, std::string>{"gl2-rb-coherent", "yes"});
}

TEST_CASE("profile is optional, no title is an empty title") {
  ParseResult r = parse("queue q compute\n");
  REQUIRE(diags(r) == "");
  CHECK(!r.c.profile);
  CHECK(r.c.title.empty());
}

TEST_CASE("queues, resources, fences, labels") {
  ParseResult r = parse(
      "queue gfx graphics\n"
      "queue acs compute\n"
      "queue cpu host\n"
      "buffer  grid  0x10000  0x4000\n"
      "texture color 0x200000 4194304 compressed\n"
      "texture plain 0x800000 0x10\n"
      "fence   f\n"
      "  label   done  0x700000   # indentation is free\n");
  REQUIRE(diags(r) == "");
  REQUIRE(r.c.queues.size() == 3);
  CHECK(r.c.queues[0].name == "gfx");
  CHECK(r.c.queues[0].type == model::QueueType::Graphics);
  CHECK(r.c.queues[1].type == model::QueueType::Compute);
  CHECK(r.c.queues[2].type == model::QueueType::Host);
  CHECK(r.c.queues[2].loc.line == 3);
  CHECK(r.c.queues[2].loc.col == 7);
  REQUIRE(r.c.resources.size() == 3);
  CHECK(r.c.resources[0].name == "grid");
  CHECK(r.c.resources[0].kind == model::ResourceKind::Buffer);
  CHECK(r.c.resources[0].address == 0x10000);
  CHECK(r.c.resources[0].size == 0x4000);
  CHECK(!r.c.resources[0].compressed);
  CHECK(r.c.resources[0].loc.line == 4);
  CHECK(r.c.resources[0].loc.col == 9);
  CHECK(r.c.resources[1].kind == model::ResourceKind::Texture);
  CHECK(r.c.resources[1].size == 0x400000);
  CHECK(r.c.resources[1].compressed);
  CHECK(!r.c.resources[2].compressed);
  REQUIRE(r.c.fences.size() == 1);
  CHECK(r.c.fences[0].name == "f");
  CHECK(r.c.fences[0].loc.line == 7);
  REQUIRE(r.c.labels.size() == 1);
  CHECK(r.c.labels[0].name == "done");
  CHECK(r.c.labels[0].address == 0x700000);
  CHECK(r.c.labels[0].loc.line == 8);
  CHECK(r.c.labels[0].loc.col == 11);
}

TEST_CASE("declaration errors, each at its token") {
  CHECK(only(parse("queue q graphics\ncase \"a\"\ncase \"b\"\n")) ==
        "3:1: error: duplicate 'case': the title was given at line 2");
  CHECK(only(parse("queue q graphics\nprofile rdna2\nprofile strict\n")) ==
        "3:1: error: duplicate 'profile': the profile was given at line 2");
  CHECK(only(parse("queue q graphics\nprofile fast\n")) ==
        "2:9: error: unknown profile 'fast'; expected rdna2 or strict");
  CHECK(only(parse("queue q graphics\nprofile Strict\n")) ==
        "2:9: error: unknown profile 'Strict'; did you mean 'strict'?");
  CHECK(only(parse("queue q graphics\nassume +a-bop-fifo\n")) ==
        "2:9: error: 'a-bop-fifo' is not an assumption ID: IDs look like A-NAME (upper case, see "
        "model/SEMANTICS.md)");
  CHECK(only(parse("queue q graphics\nassume +A-NOPE\n")) ==
        "2:9: error: unknown assumption 'A-NOPE'");
  CHECK(only(parse("queue q graphics\nassume +A-BOP-FIFO -A-BOP-FIFO\n")) ==
        "2:20: error: A-BOP-FIFO is both enabled and disabled (also at line 2)");
  CHECK(only(parse("queue q graphics\ntarget gl2-rb-coherent 1\n")) ==
        "2:24: error: expected yes or no after 'gl2-rb-coherent', found '1'");
  CHECK(only(parse("queue q gpu\n")) ==
        "1:9: error: unknown queue type 'gpu'; expected graphics, compute or host");
  CHECK(only(parse("queue q\n")) ==
        "1:8: error: expected the queue type (graphics, compute or host), found end of line");
  CHECK(only(parse("queue q graphics\nbuffer b 0x10 0\n")) == "2:15: error: buffer 'b' has size 0");
  CHECK(only(parse("queue q graphics\ntexture t 0x10 0x0\n")) ==
        "2:16: error: texture 't' has size 0");
  CHECK(only(parse("queue q graphics\nbuffer b x 1\n")) ==
        "2:10: error: expected the GPU virtual address (a number), found 'x'");
  CHECK(only(parse("queue q graphics\nlabel l\n")) ==
        "2:8: error: expected the label's address (a number), found end of line");
  CHECK(only(parse("queue q graphics\nfence 12\n")) ==
        "2:7: error: expected the fence name, found '12'");
}

TEST_CASE("overlapping resources are allowed but reported, adjacent ones are not") {
  CHECK(only(parse("queue q graphics\nbuffer a 0x1000 0x1000\nbuffer b 0x1FFF 0x10\n")) ==
        "3:8: warning: buffer 'b' overlaps buffer 'a' (declared at line 2): the two alias the same "
        "memory");
  CHECK(diags(parse("queue q graphics\nbuffer a 0x1000 0x1000\nbuffer b 0x2000 0x10\n")) == "");
  ParseResult r = parse("queue q graphics\nbuffer a 0x1000 0x1000\ntexture t 0x1000 0x10\n");
  CHECK(r.c.resources.size() == 2);
}

TEST_CASE("a resource at the very top of the address space is fine, past it is not") {
  CHECK(diags(parse("queue q graphics\nbuffer top 0xFFFFFFFFFFFFFF00 0x100\n")) == "");
  CHECK(only(parse("queue q graphics\nbuffer top 0xFFFFFFFFFFFFFF00 0x101\n")) ==
        "2:31: error: buffer 'top' ends beyond the 64-bit address space");
}

TEST_CASE("duplicate names across kinds") {
  CHECK(only(parse("queue a graphics\nbuffer a 0 1\n")) ==
        "2:8: error: duplicate name 'a': previous declaration at line 1");
  CHECK(only(parse("queue q graphics\nfence x\nlabel x 0x10\n")) ==
        "3:7: error: duplicate name 'x': previous declaration at line 2");
  CHECK(only(parse("queue q graphics\nbuffer b 0 4\non q:\n  q: Draw reads b as srv\n")) ==
        "4:3: error: duplicate name 'q': previous declaration at line 1");
}

TEST_CASE("on blocks: queues declared before, blocks of one queue concatenate") {
  ParseResult r = parse(
      "queue q graphics\nbuffer b 0 4\n"
      "on q:\n  Draw reads b as srv\n"
      "fence f\n"
      "on q:\n  Signal(f, 1)\n");
  REQUIRE(diags(r) == "");
  REQUIRE(r.c.queues[0].commands.size() == 2);
  CHECK(std::holds_alternative<model::WorkCmd>(r.c.queues[0].commands[0].body));
  CHECK(std::holds_alternative<model::SignalCmd>(r.c.queues[0].commands[1].body));
  CHECK(r.c.queues[0].commands[1].loc.line == 7);
  CHECK(r.c.queues[0].commands[1].loc.col == 3);
}

}  // namespace syncproof::lang
