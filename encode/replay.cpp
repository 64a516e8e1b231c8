#include "encode/replay.h"

#include "encode/deadlock.h"
#include "encode/encoding.h"

namespace syncproof::encode {

namespace {

solver::ContextOptions pooled(const std::shared_ptr<solver::ContextPool>& pool) {
  solver::ContextOptions o;
  o.pool = pool;
  return o;
}

}  // namespace

Accepts smt_accepts(const model::LoweredProgram& p, const properties::Obligation& o,
                    const std::vector<model::EventId>& order, uint64_t line, unsigned timeout_ms,
                    const std::shared_ptr<solver::ContextPool>& pool) {
  solver::Context ctx(pooled(pool));
  Encoding enc(p, ctx);
  solver::Solver s(ctx, "replay");
  for (solver::Term t : enc.base()) s.add(t);
  for (size_t i = 0; i + 1 < order.size(); ++i) s.add(ctx.lt(enc.t(order[i]), enc.t(order[i + 1])));
  auto q = enc.violation(o, 0);
  s.add(q.violation);
  s.add(ctx.eq(q.line, ctx.int_val(static_cast<int64_t>(line))));
  auto r = s.check(enc.assumption_literals(), timeout_ms);
  return r.status == solver::Status::Sat     ? Accepts::Yes
         : r.status == solver::Status::Unsat ? Accepts::No
                                             : Accepts::Unknown;
}

Accepts smt_accepts_deadlock(const model::LoweredProgram& p, const std::vector<size_t>& done_prefix,
                             unsigned timeout_ms,
                             const std::shared_ptr<solver::ContextPool>& pool) {
  solver::Context ctx(pooled(pool));
  auto v = check_deadlock(p, ctx, timeout_ms, &done_prefix);
  return std::holds_alternative<properties::Violated>(v) ? Accepts::Yes
         : std::holds_alternative<properties::Proved>(v) ? Accepts::No
                                                         : Accepts::Unknown;
}

}  // namespace syncproof::encode
