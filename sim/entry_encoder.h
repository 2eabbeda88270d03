// EntryEncoder: the key of one secondary index's entry for a row, as the
// engine's index orders it, made from the row's number and primary key
// (the other columns' values come from their sources, sim/column_values.h).
// InnoDB's entries end with the primary key (sim/secondary_keys.h);
// PostgreSQL's are the key columns alone, equal keys ordered by heap TID
// (sim/pg_entry_encoder.h). Each engine's preparation (sim/engines.h)
// makes one per secondary index; Load and PhaseRunner only call Encode.
//
// Encode allocates nothing. Not thread-safe (one per run).
#ifndef INNOSIM_SIM_ENTRY_ENCODER_H_
#define INNOSIM_SIM_ENTRY_ENCODER_H_

#include <cstdint>
#include <cstring>

#include "model/key.h"

namespace innosim {

// Writes the low `width` (0..8) bytes of v big-endian: how both engines
// store integers and dates in their index entries.
inline void PutBigEndian(uint64_t v, uint32_t width, uint8_t* out) {
  if (width == 0) return;
  const uint64_t be = Key::BigEndianWord(v << (64 - 8 * width));
  std::memcpy(out, &be, width);
}

class EntryEncoder {
 public:
  virtual ~EntryEncoder() = default;
  // The entry key of row `row` (0-based) whose primary key is `pk`.
  virtual Key Encode(uint64_t row, const Key& pk) const = 0;
};

}  // namespace innosim

#endif  // INNOSIM_SIM_ENTRY_ENCODER_H_
