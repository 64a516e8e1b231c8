// Named console targets (model/targets.h): their facts, the order they apply in, and that none is
// more liberal than `conservative` where a fact is not known.
#include <doctest/doctest.h>

#include "model/events.h"
#include "model/targets.h"

using namespace syncproof::model;

TEST_CASE("targets: conservative is the default and every named target has each fact sourced") {
  CHECK(config_for(Case{}, std::nullopt, {}).target.name == "conservative");
  CHECK_FALSE(config_for(Case{}, std::nullopt, {}).target.gl2_rb_coherent);
  REQUIRE(find_target("conservative"));
  CHECK(find_target("xbox-series-x"));
  CHECK(find_target("xbox-series-s"));
  CHECK_FALSE(find_target("xbox-one"));
  for (const NamedTarget& t : named_targets()) {
    CAPTURE(t.name);
    REQUIRE(t.facts.size() == target_keys().size());
    for (const TargetFact& f : t.facts) {
      CHECK_FALSE(f.certainty.empty());
      CHECK_FALSE(f.source.empty());
    }
  }
}

// The metamorphic relation `gl2-rb-coherent no` never proves more than `yes` (tools/metamorphic.h)
// then gives: a named target never proves less than `conservative`. Its facts are at least as
// liberal, and a fact no public source settles is the conservative value.
TEST_CASE("targets: no named target is more conservative than conservative, none assumes more") {
  const Target base = target_facts(*find_target("conservative"));
  for (const NamedTarget& n : named_targets()) {
    CAPTURE(n.name);
    const Target t = target_facts(n);
    CHECK((!base.gl2_rb_coherent || t.gl2_rb_coherent));
    for (const TargetFact& f : n.facts)
      if (f.certainty != "known") CHECK(f.value == false);  // unknown: the conservative `no`
  }
}

TEST_CASE("targets: the case's name, then its facts, then --target values in order") {
  Case c;
  c.target = "xbox-series-s";
  c.targets.push_back({"gl2-rb-coherent", "yes"});
  Target t = config_for(c, std::nullopt, {}).target;
  CHECK(t.name == "xbox-series-s");
  CHECK(t.gl2_rb_coherent);
  CHECK(t.changed);
  CHECK(describe(t) == "xbox-series-s with gl2-rb-coherent yes");
  // A named target on the command line replaces every fact of the case's.
  t = config_for(c, std::nullopt, {}, {"xbox-series-x"}).target;
  CHECK(t.name == "xbox-series-x");
  CHECK_FALSE(t.gl2_rb_coherent);
  CHECK_FALSE(t.changed);
  CHECK(describe(t) ==
        "xbox-series-x (gl2-rb-coherent no; the same facts as conservative, xbox-series-s)");
  t = config_for(c, std::nullopt, {}, {"conservative", "gl2-rb-coherent=no"}).target;
  CHECK(t.name == "conservative");
  CHECK_FALSE(t.changed);  // the fact it already has
  CHECK(describe_where(t) == "gl2-rb-coherent no (conservative, xbox-series-x, xbox-series-s)");
  t.gl2_rb_coherent = true;
  CHECK(describe_where(t) == "gl2-rb-coherent yes (no named target)");
}

TEST_CASE("targets: bad --target values say what is accepted") {
  Target t;
  CHECK(apply_target_option(t, "xbox-series-z") ==
        "unknown target 'xbox-series-z' (conservative, xbox-series-x, xbox-series-s, or "
        "KEY=VALUE: gl2-rb-coherent=yes|no)");
  CHECK(apply_target_option(t, "gl2=1") == "unknown target key 'gl2' (gl2-rb-coherent)");
  CHECK(apply_target_option(t, "gl2-rb-coherent=maybe") ==
        "expected gl2-rb-coherent=yes or gl2-rb-coherent=no, got 'gl2-rb-coherent=maybe'");
  CHECK(apply_target_option(t, "xbox-series-x=yes") ==
        "unknown target key 'xbox-series-x' (gl2-rb-coherent)");
  CHECK(t.name == "conservative");  // nothing applied
  CHECK_FALSE(apply_target_option(t, "gl2-rb-coherent=yes"));
  CHECK(t.gl2_rb_coherent);
}
