// Progress of long runs, for a person at a terminal.
//
// ProgressCounter is what runs report to: the insert loop adds its rows in
// batches of kBatch (one relaxed atomic add per 4096 rows, nothing per row),
// RunMany adds the rows and the number of the runs it is given to the
// totals and counts the runs it finishes; several runs on several threads
// may share one counter. A single Run() leaves the totals to its caller.
//
// ProgressLine turns a counter into one updating line on stderr:
//   "innosim: 1.25M/3.00M rows, 416.7k rows/s, 0:03 elapsed, ETA 0:04"
//   "innosim: configurations 2/6, 4.10M/18.00M rows, 1.02M rows/s, 0:04 elapsed, ETA 0:14"
// drawn with "\r" and cleared to the end of the line ("\x1b[K"), at most
// every kRedrawSeconds, and only once the work has run start_after_s
// seconds (2 s; INNOSIM_PROGRESS_AFTER_S=SECONDS overrides it, for tests),
// so short runs print nothing. Clear() (and the destructor of the drawing
// thread) erases it, so the results print on a clean line. Never drawn when
// stderr is not a terminal, or with --quiet: output to a pipe or a file
// holds no progress text.
//
// Thread safety: ProgressCounter is shared freely; a ProgressLine is used by
// one thread (StderrProgress's own drawer).
#ifndef INNOSIM_SIM_PROGRESS_H_
#define INNOSIM_SIM_PROGRESS_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace innosim {

struct ProgressCounter {
  static constexpr uint64_t kBatch = 4096;  // rows per add (a power of two)
  std::atomic<uint64_t> rows{0};            // rows inserted by every run so far
  std::atomic<uint64_t> configurations{0};  // runs finished (RunMany)
  std::atomic<uint64_t> total_rows{0};      // rows of every run, phases included
  // Runs to finish (RunMany); 0 for a single run: no "configurations" part.
  std::atomic<uint64_t> total_configurations{0};
  void AddRows(uint64_t n) { rows.fetch_add(n, std::memory_order_relaxed); }
};

// What the line counts towards.
struct ProgressTotals {
  uint64_t rows = 0;
  uint64_t configurations = 0;  // 0: a single run
};

// The line's text for `rows` and `configurations` done after `elapsed_s`
// seconds (no "\r", no escape).
std::string ProgressText(uint64_t rows, uint64_t configurations, const ProgressTotals& totals, double elapsed_s);

class ProgressLine {
 public:
  static constexpr double kRedrawSeconds = 0.25;
  static constexpr double kStartAfterSeconds = 2.0;
  // Seconds since an arbitrary origin (std::chrono::steady_clock by
  // default; tests inject their own).
  using Clock = std::function<double()>;

  // The line starts its elapsed time now (clock()); it reads the counts and
  // the totals from `counter` at every Tick.
  ProgressLine(const ProgressCounter& counter, double start_after_s, Clock clock);

  // What to write now: "" (too early, or redrawn less than kRedrawSeconds
  // ago) or "\r" + text + "\x1b[K".
  std::string Tick();
  // What to write at the end: "\r\x1b[K" when a line was drawn, else "".
  std::string Clear();

 private:
  const ProgressCounter& counter_;
  double start_after_s_;
  Clock clock_;
  double start_;
  double last_draw_ = -1;  // elapsed seconds of the last draw, -1 = none
};

// start_after_s for a ProgressLine: INNOSIM_PROGRESS_AFTER_S when set to a
// number >= 0, else ProgressLine::kStartAfterSeconds.
double ProgressStartAfterSeconds();

// A ProgressLine drawn on stderr by a thread of its own, every
// kRedrawSeconds, while the object lives; the destructor stops the thread
// and clears the line. Does nothing (no thread) when stderr is not a
// terminal or `quiet`.
class StderrProgress {
 public:
  StderrProgress(const ProgressCounter& counter, bool quiet);
  ~StderrProgress();
  StderrProgress(const StderrProgress&) = delete;
  StderrProgress& operator=(const StderrProgress&) = delete;

 private:
  void Draw();

  ProgressLine line_;
  std::mutex mu_;
  std::condition_variable wake_;
  bool stop_ = false;
  std::thread drawer_;
};

}  // namespace innosim

#endif  // INNOSIM_SIM_PROGRESS_H_
