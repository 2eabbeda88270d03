#include "sim/progress.h"

#include <unistd.h>

#include <chrono>
#include <cstdlib>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace innosim {
namespace {

// 950, 12.3k, 1.25M, 2.00G: short enough that the line fits 80 columns
// (a line that wraps cannot be redrawn with "\r").
std::string Count(double n) {
  if (n < 10000) return absl::StrFormat("%.0f", n);
  if (n < 1e6) return absl::StrFormat("%.1fk", n / 1e3);
  if (n < 1e9) return absl::StrFormat("%.2fM", n / 1e6);
  return absl::StrFormat("%.2fG", n / 1e9);
}

// 0:07, 12:34, 1:02:03.
std::string Duration(double s) {
  const uint64_t t = s < 0 ? 0 : static_cast<uint64_t>(s + 0.5);
  if (t >= 3600) return absl::StrFormat("%d:%02d:%02d", t / 3600, t / 60 % 60, t % 60);
  return absl::StrFormat("%d:%02d", t / 60, t % 60);
}

double SteadySeconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

std::string ProgressText(uint64_t rows, uint64_t configurations, const ProgressTotals& totals, double elapsed_s) {
  std::string s = "innosim: ";
  if (totals.configurations > 0) {
    absl::StrAppend(&s, "configurations ", configurations, "/", totals.configurations, ", ");
  }
  absl::StrAppend(&s, Count(static_cast<double>(rows)), "/", Count(static_cast<double>(totals.rows)), " rows");
  const double rate = elapsed_s > 0 ? static_cast<double>(rows) / elapsed_s : 0;
  absl::StrAppend(&s, ", ", Count(rate), " rows/s, ", Duration(elapsed_s), " elapsed, ETA ");
  if (rate > 0 && rows <= totals.rows) {
    absl::StrAppend(&s, Duration(static_cast<double>(totals.rows - rows) / rate));
  } else {
    absl::StrAppend(&s, "?");
  }
  return s;
}

ProgressLine::ProgressLine(const ProgressCounter& counter, double start_after_s, Clock clock)
    : counter_(counter), start_after_s_(start_after_s), clock_(std::move(clock)), start_(clock_()) {}

std::string ProgressLine::Tick() {
  const double elapsed = clock_() - start_;
  if (elapsed < start_after_s_) return "";
  if (last_draw_ >= 0 && elapsed - last_draw_ < kRedrawSeconds) return "";
  last_draw_ = elapsed;
  const ProgressTotals totals{counter_.total_rows.load(std::memory_order_relaxed),
                              counter_.total_configurations.load(std::memory_order_relaxed)};
  return "\r" +
         ProgressText(counter_.rows.load(std::memory_order_relaxed),
                      counter_.configurations.load(std::memory_order_relaxed), totals, elapsed) +
         "\x1b[K";
}

std::string ProgressLine::Clear() {
  if (last_draw_ < 0) return "";
  last_draw_ = -1;
  return "\r\x1b[K";
}

double ProgressStartAfterSeconds() {
  double s = 0;
  const char* env = std::getenv("INNOSIM_PROGRESS_AFTER_S");
  if (env != nullptr && absl::SimpleAtod(env, &s) && s >= 0) return s;
  return ProgressLine::kStartAfterSeconds;
}

namespace {
void WriteAll(const std::string& s) {
  size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(STDERR_FILENO, s.data() + done, s.size() - done);
    if (n <= 0) return;  // a closed terminal: progress is not worth an error
    done += static_cast<size_t>(n);
  }
}
}  // namespace

StderrProgress::StderrProgress(const ProgressCounter& counter, bool quiet)
    : line_(counter, ProgressStartAfterSeconds(), SteadySeconds) {
  if (quiet || ::isatty(STDERR_FILENO) != 1) return;
  drawer_ = std::thread([this]() { Draw(); });
}

void StderrProgress::Draw() {
  std::unique_lock<std::mutex> lock(mu_);
  while (!stop_) {
    wake_.wait_for(lock, std::chrono::duration<double>(ProgressLine::kRedrawSeconds), [this]() { return stop_; });
    if (!stop_) WriteAll(line_.Tick());
  }
  WriteAll(line_.Clear());
}

StderrProgress::~StderrProgress() {
  if (!drawer_.joinable()) return;
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  wake_.notify_one();
  drawer_.join();
}

}  // namespace innosim
