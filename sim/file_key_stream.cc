#include "sim/file_key_stream.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include <unistd.h>

#include "absl/status/status.h"
#include "absl/strings/escaping.h"
#include "absl/strings/str_cat.h"
#include "sim/output_file.h"
#include "sim/uuid.h"

namespace innosim {
namespace {

constexpr size_t kChunkBytes = size_t{1} << 20;  // multiple of 16 and of 8
constexpr size_t kSniffBytes = 4096;
constexpr size_t kQuoteChars = 48;  // longest piece of a bad line to quote

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
using FilePtr = std::unique_ptr<std::FILE, FileCloser>;

inline uint64_t LoadBigEndian64(const unsigned char* p) {
  uint64_t v = 0;
  for (int i = 0; i < 8; ++i) v = (v << 8) | p[i];
  return v;
}

bool IsTextByte(unsigned char c) {
  return (c >= 0x20 && c <= 0x7e) || c == '\t' || c == '\r' || c == '\n';
}

// A file read through a fixed buffer: [pos_, end_) is unread data.
class ChunkReader {
 public:
  // `capacity` is kChunkBytes, or less for a file that fits in less.
  ChunkReader(FilePtr file, std::string path, size_t capacity)
      : file_(std::move(file)), path_(std::move(path)), buf_(capacity) {}

  // Keeps the unread bytes, moves them to the front and reads until the
  // buffer is full or the file ends. Returns an error status on read errors.
  absl::Status Refill() {
    const size_t unread = static_cast<size_t>(end_ - pos_);
    if (unread > 0 && pos_ != buf_.data()) std::memmove(buf_.data(), pos_, unread);
    pos_ = buf_.data();
    end_ = buf_.data() + unread;
    while (!eof_ && end_ < buf_.data() + buf_.size()) {
      const size_t want = static_cast<size_t>(buf_.data() + buf_.size() - end_);
      const size_t got = std::fread(end_, 1, want, file_.get());
      end_ += got;
      if (got < want) {
        if (std::ferror(file_.get())) {
          return absl::DataLossError(
              absl::StrCat(path_, ": read error: ", std::strerror(errno)));
        }
        eof_ = true;
      }
    }
    return absl::OkStatus();
  }

  const char* pos() const { return pos_; }
  const char* end() const { return end_; }
  void Consume(size_t n) { pos_ += n; }
  size_t unread() const { return static_cast<size_t>(end_ - pos_); }
  bool eof() const { return eof_; }
  bool full() const { return pos_ == buf_.data() && end_ == buf_.data() + buf_.size(); }
  const std::string& path() const { return path_; }

 private:
  FilePtr file_;
  std::string path_;
  std::vector<char> buf_;
  char* pos_ = nullptr;
  char* end_ = nullptr;
  bool eof_ = false;
};

// Keys of a stream whose length is not known in advance (standard input).
constexpr uint64_t kUnknownKeys = ~uint64_t{0};

class BinaryKeyStream final : public KeyStream {
 public:
  // `prefix` is the spelling (file16:, fileN:) for messages.
  BinaryKeyStream(ChunkReader reader, int width, uint64_t expected_keys, std::string prefix)
      : reader_(std::move(reader)), width_(width), expected_keys_(expected_keys), prefix_(std::move(prefix)) {}

  bool Next(Key* out) override {
    if (reader_.unread() < static_cast<size_t>(width_)) {
      if (done_) return false;
      if (!Refill()) return false;
    }
    const auto* p = reinterpret_cast<const unsigned char*>(reader_.pos());
    if (width_ == 16 || width_ == 8) {
      out->hi = LoadBigEndian64(p);
      out->lo = width_ == 16 ? LoadBigEndian64(p + 8) : 0;
    } else {
      *out = Key::FromBytes(p, static_cast<size_t>(width_));  // left-aligned, as the column compares
    }
    reader_.Consume(static_cast<size_t>(width_));
    ++keys_;
    return true;
  }
  int key_width() const override { return width_; }
  absl::Status status() const override { return status_; }

 private:
  // Returns true if at least one whole record is unread afterwards.
  bool Refill() {
    if (absl::Status s = reader_.Refill(); !s.ok()) return Stop(std::move(s));
    if (reader_.unread() >= static_cast<size_t>(width_)) return true;
    if (expected_keys_ == kUnknownKeys) {  // standard input: its end is its size
      if (reader_.unread() != 0) {
        return Stop(absl::InvalidArgumentError(absl::StrCat(
            reader_.path(), ": the last record is ", reader_.unread(), " bytes, not ", width_, " (", prefix_,
            " reads ", width_, "-byte big-endian records, ", keys_, " whole ones came first): the input is truncated")));
      }
      if (keys_ == 0) {
        return Stop(absl::InvalidArgumentError(absl::StrCat(reader_.path(), " is empty: give ", width_,
                                                            "-byte big-endian records")));
      }
      done_ = true;
      return false;
    }
    // End of file. It was a whole number of records when opened; anything
    // else means it changed while we read it.
    if (reader_.unread() != 0 || keys_ != expected_keys_) {
      return Stop(absl::DataLossError(absl::StrCat(
          reader_.path(), ": file changed while reading (expected ", expected_keys_,
          " keys of ", width_, " bytes, read ", keys_, " and ", reader_.unread(),
          " stray bytes); do not modify a key file during a run")));
    }
    done_ = true;
    return false;
  }
  bool Stop(absl::Status s) {
    status_ = std::move(s);
    done_ = true;
    return false;
  }

  ChunkReader reader_;
  int width_;
  uint64_t expected_keys_;
  std::string prefix_;
  uint64_t keys_ = 0;
  bool done_ = false;
  absl::Status status_;
};

class TextKeyStream final : public KeyStream {
 public:
  explicit TextKeyStream(ChunkReader reader) : reader_(std::move(reader)) {}

  bool Next(Key* out) override {
    while (!done_) {
      const char* begin = reader_.pos();
      const char* nl =
          static_cast<const char*>(std::memchr(begin, '\n', reader_.unread()));
      const char* line_end = nl;
      if (nl == nullptr) {
        if (!reader_.eof() && !reader_.full()) {
          if (absl::Status s = reader_.Refill(); !s.ok()) return Stop(std::move(s));
          continue;
        }
        if (reader_.unread() == 0) {  // clean end of file
          done_ = true;
          if (keys_ == 0) {
            status_ = absl::InvalidArgumentError(absl::StrCat(
                reader_.path(), ": no UUIDs found (only blank lines); write one UUID per line"));
          }
          return false;
        }
        // Last line without a newline, or a line longer than the buffer
        // (which is malformed anyway: the check below rejects it).
        line_end = reader_.end();
      }
      ++line_;
      std::string_view line(begin, static_cast<size_t>(line_end - begin));
      reader_.Consume(line.size() + (nl != nullptr ? 1 : 0));
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) {
        line.remove_suffix(1);
      }
      while (!line.empty() && (line.front() == ' ' || line.front() == '\t')) {
        line.remove_prefix(1);
      }
      if (line.empty()) continue;
      if (ParseUuid(line, out)) {
        ++keys_;
        return true;
      }
      const std::string_view head = line.substr(0, kQuoteChars);
      std::string quoted = absl::CHexEscape(absl::string_view(head.data(), head.size()));
      if (line.size() > kQuoteChars) quoted += "...";
      return Stop(absl::InvalidArgumentError(
          absl::StrCat(reader_.path(), ":", line_, ": malformed UUID '", quoted,
                       "': expected 8-4-4-4-12 hex digits")));
    }
    return false;
  }
  int key_width() const override { return 16; }
  absl::Status status() const override { return status_; }

  // Skips `n` bytes at the start (a byte order mark).
  void Skip(size_t n) { reader_.Consume(n); }

 private:
  bool Stop(absl::Status s) {
    status_ = std::move(s);
    done_ = true;
    return false;
  }

  ChunkReader reader_;
  uint64_t line_ = 0;
  uint64_t keys_ = 0;
  bool done_ = false;
  absl::Status status_;
};

std::string FormatPrefix(KeyFileFormat format, int width) {
  switch (format) {
    case KeyFileFormat::kAuto:
      return "file:";
    case KeyFileFormat::kBinary16:
      return "file16:";
    case KeyFileFormat::kBinary8:
      return "file8:";
    case KeyFileFormat::kBinaryN:
      return absl::StrCat("file", width, ":");
  }
  return "file:";
}

// file: (kAuto) decides by the first kSniffBytes: printable ASCII (after an
// optional UTF-8 BOM) is a text key file, read by the stream returned here
// (`reader` moved into it); anything else is binary, and nullptr leaves
// `reader` as it was.
std::unique_ptr<KeyStream> TextStreamIfText(ChunkReader& reader) {
  const auto* p = reinterpret_cast<const unsigned char*>(reader.pos());
  const size_t n = std::min(reader.unread(), kSniffBytes);
  size_t bom = 0;
  if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) bom = 3;
  for (size_t i = bom; i < n; ++i) {
    if (!IsTextByte(p[i])) return nullptr;
  }
  auto stream = std::make_unique<TextKeyStream>(std::move(reader));
  stream->Skip(bom);
  return stream;
}

// The name standard input goes by in messages.
constexpr char kStdinName[] = "standard input";

// file:- and fileN:-: standard input, read to its end.
absl::StatusOr<std::unique_ptr<KeyStream>> OpenStdin(KeyFileFormat format, int width) {
  const std::string prefix = FormatPrefix(format, width);
  // A FILE of our own on a duplicate of fd 0, so closing it leaves stdin.
  const int fd = dup(STDIN_FILENO);
  std::FILE* f = fd < 0 ? nullptr : fdopen(fd, "rb");
  if (f == nullptr) {
    if (fd >= 0) close(fd);
    return absl::InvalidArgumentError(absl::StrCat("cannot read standard input for '", prefix,
                                                   "-': ", std::strerror(errno), "; pipe the keys in or give a path"));
  }
  ChunkReader reader(FilePtr(f), kStdinName, kChunkBytes);
  if (absl::Status s = reader.Refill(); !s.ok()) return s;
  if (reader.unread() == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "standard input is empty ('", prefix, "-'); pipe keys in, e.g. innosim keys --stream S --rows N | ..."));
  }
  if (format == KeyFileFormat::kAuto) {
    if (std::unique_ptr<KeyStream> text = TextStreamIfText(reader)) return text;
    width = 16;
  } else if (format != KeyFileFormat::kBinaryN) {
    width = format == KeyFileFormat::kBinary8 ? 8 : 16;
  }
  return std::make_unique<BinaryKeyStream>(std::move(reader), width, kUnknownKeys, prefix);
}

}  // namespace

absl::StatusOr<std::unique_ptr<KeyStream>> OpenKeyFile(const std::string& path,
                                                       KeyFileFormat format, int width) {
  if (format == KeyFileFormat::kBinaryN && (width < 1 || width > static_cast<int>(Key::kMaxBytes))) {
    return absl::InvalidArgumentError(absl::StrCat("key stream 'file", width, ":", path, "': record width ", width,
                                                   " is out of range; use file1: to file32: (bytes per big-endian "
                                                   "record, e.g. file4: for INT)"));
  }
  const std::string prefix = FormatPrefix(format, width);
  const std::string spec = absl::StrCat(prefix, path);
  if (path == "-") return OpenStdin(format, width);
  NoteInputFile(path);  // an output naming it is refused (sim/output_file.h)
  if (path.empty()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "key stream '", spec, "' has no path; write it as ", spec, "/path/to/keys"));
  }
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(absl::StrCat(
        "key file '", path, "' is a directory; give the path of a key file after '", prefix, "'"));
  }
  FilePtr file(std::fopen(path.c_str(), "rb"));
  if (file == nullptr) {
    const int err = errno;
    std::string msg = absl::StrCat("cannot open key file '", path, "': ", std::strerror(err),
                                   "; check the path after '", prefix, "'");
    return err == ENOENT ? absl::NotFoundError(msg) : absl::InvalidArgumentError(msg);
  }
  const uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) {
    return absl::InvalidArgumentError(absl::StrCat("cannot read the size of key file '", path,
                                                   "': ", ec.message()));
  }
  if (size == 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "key file '", path,
        "' is empty; write one UUID per line, or 16-byte (file16:) or 8-byte (file8:) "
        "big-endian binary records"));
  }

  // A small file gets a buffer of its own size (rounded up to whole
  // records), not a 1 MiB one: the whole file is then read by the first
  // Refill, exactly as with the big buffer.
  const size_t capacity =
      size >= kChunkBytes ? kChunkBytes : static_cast<size_t>((size + 15) / 16 * 16);
  ChunkReader reader(std::move(file), path, capacity);
  if (absl::Status s = reader.Refill(); !s.ok()) return s;

  if (format == KeyFileFormat::kAuto) {
    if (std::unique_ptr<KeyStream> text = TextStreamIfText(reader)) return text;
    format = KeyFileFormat::kBinary16;
    if (size % 16 != 0) {
      return absl::InvalidArgumentError(absl::StrCat(
          "key file '", path, "' is binary and ", size, " bytes, not a multiple of 16; ",
          size % 8 == 0 ? absl::StrCat("for 8-byte BIGINT keys use file8:", path)
                        : std::string("a binary key file holds 16-byte (or, with file8:, "
                                      "8-byte) records, and a text key file is printable "
                                      "ASCII, one UUID per line")));
    }
  }
  if (format != KeyFileFormat::kBinaryN) width = format == KeyFileFormat::kBinary8 ? 8 : 16;
  if (size % static_cast<uintmax_t>(width) != 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "key file '", path, "' is ", size, " bytes, not a multiple of ", width, " (", prefix, " reads ", width,
        "-byte big-endian records); ",
        width == 16 && size % 8 == 0
            ? absl::StrCat("for 8-byte keys use file8:", path)
            : std::string("the file is truncated or not a binary key file")));
  }
  return std::make_unique<BinaryKeyStream>(std::move(reader), width, static_cast<uint64_t>(size / width),
                                           prefix);
}

}  // namespace innosim
