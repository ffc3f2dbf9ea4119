#pragma once
// The temporary names a DatasetTransfer writes under, and how it tells its
// own temporaries from a user's datasets.
//
// An output is created as ".oocfft-partial-NAME" beside its name, a real
// inverse's half spectrum as ".oocfft-scratch-NAME", and an in-place commit
// moves the input aside as ".oocfft-replaced-NAME" while the result takes
// its name. A temporary dataset carries the attribute oocfft_temporary
// (what it is and which process wrote it), removed when the result is
// committed. A transfer deletes only the temporaries it created itself; a
// name it needs that is taken, whether by a leftover of a run that was
// killed (marked) or by a dataset of the user (not marked), is refused
// before anything is written, the message naming it and how to remove it.
// A new output file is written as "FILE.oocfft-partial" beside its name and
// renamed on commit; one found there is refused the same way.
#include <hdf5.h>

#include <string>

#include "oocfft/hdf5.hpp"

namespace oocfft::io {

inline constexpr const char* partial_prefix = ".oocfft-partial-";
inline constexpr const char* replaced_prefix = ".oocfft-replaced-";
inline constexpr const char* scratch_prefix = ".oocfft-scratch-";
inline constexpr const char* temporary_attribute = "oocfft_temporary";

// "/group/.oocfft-partial-name" for "/group/name".
std::string temporary_sibling_dataset(const std::string& dataset, const char* prefix);

// Marks the open `object` as a temporary of process `owner_pid` (this one,
// or in the distributed file path rank 0, whose value every rank writes):
// `role` says what it is ("the partial output of /o"). The caller holds
// the HDF5 lock.
void mark_temporary(hid_t object, const std::string& role, const std::string& where, long owner_pid);
// Removes the mark (from a result that is being committed).
void unmark_temporary(hid_t object, const std::string& where);

// Throws Error(io) when `name` exists in `file`, the message naming
// FILE:NAME, whether it is a leftover of oocfft (marked) or the user's, and
// how to remove it; `needed_for` says why the name is needed ("the
// temporary of /o"). The caller holds the HDF5 lock.
void require_free_temporary_name(hid_t file, const std::string& file_name, const std::string& name,
                                 const std::string& needed_for);

// Throws Error(io) when the new output file's temporary `temporary` exists,
// naming it and how to remove it.
void require_free_temporary_file(const std::string& temporary, const std::string& output_file);

// When `dataset` is missing from `file` but ".oocfft-replaced-NAME" is
// there, the input of an in-place run that was killed while committing:
// throws Error(io) saying so and how to put it back.
void explain_missing_input(hid_t file, const DatasetPath& input);

}  // namespace oocfft::io
