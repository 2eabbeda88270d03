// innosim keys: a key stream's keys, written out so that the same keys can
// go into other tools and servers (and back into innosim as file:PATH or
// file8:PATH).
//
//   innosim keys --stream uuidv1 --rows 1M [--rows-per-ms 482] [--seed 1]
//                [--format text|binary] [--output FILE]
//                [--writers N --clock-skew-ms MS ...] (sim/cli/load_options.h)
//
// text: one key per line, the canonical 8-4-4-4-12 lowercase UUID text for
// 16-byte keys and the unsigned decimal for 8-byte ones (autoinc,
// snowflake); binary: the raw big-endian column bytes back to back (16 or 8
// per key), what file16:/file8: read. Without --output the keys go to
// stdout. A file is replaced atomically: a small output is built in memory
// and written by WriteFileAtomically, a large one streamed into a unique
// temporary beside the file and renamed (AtomicFileWriter); on any error
// the file is left as it was.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "sim/cli/commands.h"
#include "sim/cli/load_options.h"
#include "sim/count.h"
#include "sim/key_stream.h"
#include "sim/nearest_name.h"
#include "sim/report.h"
#include "sim/uuid.h"
#include "sim/stream_registry.h"

namespace innosim::cli {
namespace {

// Outputs up to this size are built in memory and written in one go.
constexpr uint64_t kInMemoryLimit = 16 << 20;
// Generated keys are handed on in chunks of about this size.
constexpr size_t kChunk = 1 << 20;

struct KeysOptions {
  LoadOptions load;  // --stream, --rows, --seed, --writers ..., --rows-per-ms
  std::string format = "text", output;
};

// Where the chunks go: stdout, a string for WriteFileAtomically, or an
// AtomicFileWriter.
class Sink {
 public:
  explicit Sink(const std::string& path, bool in_memory) : path_(path), in_memory_(in_memory) {}
  absl::Status Open() { return path_.empty() || in_memory_ ? absl::OkStatus() : writer_.Open(path_); }
  absl::Status Append(const std::string& chunk) {
    if (path_.empty()) {
      if (std::fwrite(chunk.data(), 1, chunk.size(), stdout) != chunk.size()) {
        return absl::InternalError("writing the keys to stdout failed (is the disk or pipe full?)");
      }
      return absl::OkStatus();
    }
    if (in_memory_) {
      whole_ += chunk;
      return absl::OkStatus();
    }
    return writer_.Append(chunk);
  }
  absl::Status Commit() {
    if (path_.empty()) {
      return std::fflush(stdout) == 0 ? absl::OkStatus()
                                       : absl::InternalError("writing the keys to stdout failed");
    }
    return in_memory_ ? WriteFileAtomically(path_, whole_) : writer_.Commit();
  }

 private:
  std::string path_;
  bool in_memory_;
  std::string whole_;
  AtomicFileWriter writer_;  // removes its temporary unless committed
};

int RunKeys(const KeysOptions& o) {
  absl::StatusOr<uint64_t> rows = ParseCount(o.load.rows);
  if (!rows.ok()) return Fail(2, absl::StrCat("--rows: ", rows.status().message()));
  if (*rows == 0) return Fail(2, "--rows must be at least 1 (e.g. --rows 1M)");
  absl::StatusOr<uint64_t> rpms = ParseRowsPerMs(o.load.rows_per_ms);
  if (!rpms.ok()) return Fail(2, std::string(rpms.status().message()));
  if (absl::StatusOr<uint64_t> seed = ParseSeed(o.load.seed); !seed.ok()) {
    return Fail(2, std::string(seed.status().message()));
  }
  const bool binary = o.format == "binary";
  if (!binary && o.format != "text") {
    return Fail(2, absl::StrCat("--format '", o.format, "'", DidYouMean(o.format, {"text", "binary"}),
                                ": use text (one key per line) or binary (raw big-endian bytes)"));
  }
  const std::string& name = o.load.stream;
  if (!IsKnownStreamName(name)) {
    return Fail(2, absl::StrCat("unknown stream '", name, "'", DidYouMean(name, GeneratorStreamNames()),
                                ": use ", absl::StrJoin(GeneratorStreamNames(), ", "), " or file:PATH"));
  }
  RunSpec run;
  if (absl::Status s = o.load.Apply(&run, *rpms); !s.ok()) return Fail(2, std::string(s.message()));
  const StreamSpec& spec = run.stream;
  absl::StatusOr<std::unique_ptr<KeyStream>> stream = MakeKeyStream(spec);
  if (!stream.ok()) return Fail(2, std::string(stream.status().message()));
  KeyStream& ks = **stream;
  const int width = ks.key_width();
  if (!o.output.empty()) {
    if (absl::Status s = CheckOutputPath(o.output, "--output"); !s.ok()) return Fail(2, std::string(s.message()));
  }
  // A text UUID line is 37 bytes; a decimal BIGINT at most 21; another
  // width 0x and two hex digits a byte.
  const uint64_t per_key =
      binary ? static_cast<uint64_t>(width) : (width == 16 ? 37 : std::max<uint64_t>(21, 3 + 2 * static_cast<uint64_t>(width)));
  const bool in_memory = *rows <= kInMemoryLimit / per_key;
  if (!o.output.empty()) {
    // Refused up front, not after filling the disk: the estimate is exact
    // for binary and UUID text, an upper bound for decimal text.
    const unsigned __int128 need = static_cast<unsigned __int128>(*rows) * per_key;
    const uint64_t bytes = need > UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(need);
    if (absl::Status s = CheckRoomFor(o.output, bytes, "--output"); !s.ok()) return Fail(2, std::string(s.message()));
  }
  Sink sink(o.output, in_memory);
  if (absl::Status s = sink.Open(); !s.ok()) return Fail(absl::IsInvalidArgument(s) ? 2 : 3, std::string(s.message()));
  std::string chunk;
  chunk.reserve(kChunk + 64);
  Key k;
  for (uint64_t i = 0; i < *rows; ++i) {
    if (!ks.Next(&k)) {
      // Only a key file ends; the output file (if any) is not touched.
      if (!ks.status().ok()) return Fail(2, std::string(ks.status().message()));
      return Fail(2, absl::StrCat("the stream ended after ", i, " of ", *rows,
                                  " keys: lower --rows or give a longer key file"));
    }
    if (binary) {
      uint8_t b[Key::kMaxBytes];
      k.ToBytes(b, static_cast<size_t>(width));
      chunk.append(reinterpret_cast<const char*>(b), static_cast<size_t>(width));
    } else {
      chunk += FormatKey(k, width);
      chunk += '\n';
    }
    if (chunk.size() >= kChunk) {
      if (absl::Status s = sink.Append(chunk); !s.ok()) return Fail(3, std::string(s.message()));
      chunk.clear();
    }
  }
  if (absl::Status s = sink.Append(chunk); !s.ok()) return Fail(3, std::string(s.message()));
  if (absl::Status s = sink.Commit(); !s.ok()) return Fail(absl::IsInvalidArgument(s) ? 2 : 3, std::string(s.message()));
  return 0;
}

}  // namespace

void AddKeys(CLI::App& app, Registry& reg) {
  auto* sub = app.add_subcommand("keys", "Write a key stream's keys (text or binary) to stdout or a file");
  auto o = std::make_shared<KeysOptions>();
  LoadHelp help;
  help.stream = StreamOptionHelp();
  help.rows = "keys to write; suffixes k, M, G (e.g. 1M)";
  help.seed = "random seed of the key stream (0 to 2^64-1)";
  help.writers = true;
  help.rows_per_ms = "rows per millisecond of the synthetic clock";
  o->load.Register(sub, help);
  sub->add_option("--format", o->format,
                  "text: one key per line (UUID text, or decimal for 8-byte keys; reads back as file:PATH); "
                  "binary: raw big-endian bytes (file16:PATH / file8:PATH)")
      ->capture_default_str();
  sub->add_option("--output", o->output, "write to this file (replaced atomically) instead of stdout");
  reg.Add(sub, [o]() { return RunKeys(*o); });
}

}  // namespace innosim::cli
