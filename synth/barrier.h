#pragma once
// `syncproof barrier`: the cheapest proved barrier between one producer access and one consumer
// access, found by writing the smallest case with the two accesses and no barrier (a Signal2X
// after the producer when the queues differ, for a wait to use), and asking the fix search
// (synth/fix.h) for every property: visible and no-hazards for a read, no-hazards for a write,
// deadlock-free across queues. The query and the case text are plain data; the CLI runs it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/case.h"

namespace syncproof::synth {

struct AccessSpec {
  model::Stage stage = model::Stage::Cs;
  model::AccessKind kind = model::AccessKind::Uav;
  bool write = false;
};

// "cs uav", "ps srv", "uav" (the kind's default stage), "cs uav write" (a consumer that writes;
// a kind that can only be written is a write). `producer`: must be a write. nullopt with *error.
std::optional<AccessSpec> parse_access(std::string_view text, bool producer, std::string* error);
// "cs uav", "ps rt write": what parse_access reads back (`producer`: without "write").
std::string access_words(const AccessSpec& a, bool producer = false);

struct BarrierQuery {
  AccessSpec producer, consumer;
  std::optional<model::QueueType> producer_queue, consumer_queue;  // defaults: see resolve()
  std::string target;               // `target NAME`; "" = the model's default (conservative)
  std::optional<bool> rb_coherent;  // `target gl2-rb-coherent yes|no`; none: the target's
  std::string profile;              // "" = the model's default
};

// The queues a query runs on, and whether they are one queue: host accesses run on a host queue;
// otherwise the producer is on graphics unless asked, and the consumer on the producer's queue
// unless asked (or host). Two GPU queues of one type asked for are one queue.
struct Resolved {
  model::QueueType pq, cq;
  bool cross;
};
std::optional<Resolved> resolve(const BarrierQuery& q, std::string* error);

// The case file text of the query (no barrier; a Signal2X or host Signal after the producer when
// the queues differ). Lines: see barrier.cpp.
std::string barrier_case_text(const BarrierQuery& q, const Resolved& r);

// Every write kind as a producer and every read and write kind as a consumer, each at its
// default stage (uav also at ps), for `barrier --table`.
std::vector<AccessSpec> table_producers();
std::vector<AccessSpec> table_consumers();

}  // namespace syncproof::synth
