# The libFuzzer harnesses, one per input parser: NAME_fuzzer.cc, its seed
# corpus corpus/NAME/ and, if present, its dictionary NAME.dict. Included by
# tests/fuzz/CMakeLists.txt (which builds them) and tests/CMakeLists.txt
# (which runs them under ctest).
set(INNOSIM_FUZZERS
  ibd_reader     # ReadIbdBytes: .ibd tablespace images
  key_file       # OpenKeyFile: file:, file16:, file8: key files
  defaults_file  # ParseDefaultsFile + CheckDefaultsEntries + ApplyServerVariable
  set_variable   # ApplyServerVariable: one --set NAME=VALUE, both servers
  create_table   # ParseCreateTable / ResolveTable
  experiment     # ParseExperiment (parsed and checked, never run)
  count_size     # ParseCount, ParseCountList, ParseSize
  pg_table       # ParsePgTable / ResolvePgTable + PgEntryEncoder
)
