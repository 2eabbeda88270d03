// FanOutSink: one tree's page events, handed to several sinks.
//
// A speed device: the B-trees of a load depend on the rows alone, never on
// the buffer pool, redo log or page cleaner they report to (the tree only
// emits PageEventSink calls, model/page_events.h). Several server
// configurations that differ only on that side (the doublewrite pair of
// seed 000, a sweep of pool sizes) can then share one tree: Engine's
// several-configuration constructor (model/engine.h) gives its trees this
// sink, and each configuration's FlushModel receives every call, in order,
// exactly as it would from a tree of its own. The events each configuration
// makes itself (its undo logs, statistics and clock) go to its own sink
// only, at the same points of the row as alone.
//
// Equivalence: tests/shared_tree_equivalence_test.cc (each configuration's
// counters, time series and pool against the same load run alone).
#ifndef INNOSIM_MODEL_FAST_FAN_OUT_SINK_H_
#define INNOSIM_MODEL_FAST_FAN_OUT_SINK_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "model/page_events.h"

namespace innosim {

class FanOutSink final : public PageEventSink {
 public:
  // Adds a sink (not owned) after the ones added before; each call goes to
  // them in that order.
  void Add(PageEventSink* sink) { sinks_.push_back(sink); }
  size_t size() const { return sinks_.size(); }

  void OnPageAccess(uint32_t space_id, uint32_t page_no) override {
    Each(&PageEventSink::OnPageAccess, space_id, page_no);
  }
  void OnPageFixOnly(uint32_t space_id, uint32_t page_no) override {
    Each(&PageEventSink::OnPageFixOnly, space_id, page_no);
  }
  void OnPageCreate(uint32_t space_id, uint32_t page_no) override {
    Each(&PageEventSink::OnPageCreate, space_id, page_no);
  }
  void OnPageModify(uint32_t space_id, uint32_t page_no) override {
    Each(&PageEventSink::OnPageModify, space_id, page_no);
  }
  void OnMtrCommit(uint64_t redo_bytes) override { Each(&PageEventSink::OnMtrCommit, redo_bytes); }
  void OnPageFree(uint32_t space_id, uint32_t page_no) override { Each(&PageEventSink::OnPageFree, space_id, page_no); }
  void OnTempPageModify(uint32_t space_id, uint32_t page_no) override {
    Each(&PageEventSink::OnTempPageModify, space_id, page_no);
  }
  void OnSpaceDrop(uint32_t space_id) override { Each(&PageEventSink::OnSpaceDrop, space_id); }
  void OnPagesFlush(uint32_t space_id, const std::vector<uint32_t>& pages) override {
    for (PageEventSink* s : sinks_) s->OnPagesFlush(space_id, pages);
  }
  void OnPageSoon(uint32_t space_id, uint32_t page_no, int step) override {
    Each(&PageEventSink::OnPageSoon, space_id, page_no, step);
  }
  // The first sink's failure, in the order added.
  absl::Status status() const override {
    for (const PageEventSink* s : sinks_) {
      if (absl::Status st = s->status(); !st.ok()) return st;
    }
    return absl::OkStatus();
  }
  std::string Verify() const override {
    for (const PageEventSink* s : sinks_) {
      if (std::string e = s->Verify(); !e.empty()) return e;
    }
    return "";
  }

 private:
  // Calls `event` (a virtual of PageEventSink: each sink's own override)
  // on every sink in order.
  template <typename... Params, typename... Args>
  void Each(void (PageEventSink::*event)(Params...), Args... args) {
    for (PageEventSink* s : sinks_) (s->*event)(args...);
  }

  std::vector<PageEventSink*> sinks_;
};

}  // namespace innosim

#endif  // INNOSIM_MODEL_FAST_FAN_OUT_SINK_H_
