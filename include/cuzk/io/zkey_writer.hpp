// Writes snarkjs Groth16 proving keys (.zkey) in the layout io/zkey.hpp reads:
// sections 1 to 10 in order, points as the raw bytes of ec::Affine (Montgomery
// little-endian, infinity all-zero), coefficients as coef_to_stored(value), and
// an empty contributions section (a zero csHash and no contributions), which
// is what snarkjs's own tools expect to find.
#pragma once

#include <filesystem>

#include "cuzk/groth16/keys.hpp"

namespace cuzk::io {

// Writes to a temporary file beside `path`, renamed over it at the end, so a
// failed write leaves no partial file. Point sections go from the key's memory
// to the file as they are and coefficients through a small buffer, so memory
// stays flat for any key size. Throws std::system_error (a runtime_error)
// naming the path when it cannot be written, std::invalid_argument naming it
// when the key's arrays disagree in size or exceed the format's u32 counts.
template <class E>
void write_zkey(const std::filesystem::path& path, const groth16::ProvingKey<E>& key);

extern template void write_zkey(const std::filesystem::path&, const groth16::ProvingKey<ec::Bn254>&);
extern template void write_zkey(const std::filesystem::path&, const groth16::ProvingKey<ec::Bls12_381>&);

}  // namespace cuzk::io
