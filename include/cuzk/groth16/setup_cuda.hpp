// The development setup (setup.hpp) with its points made on a GPU and kept
// there: a BLS12-381 key of 2^27 constraints (a Filecoin PoRep partition) has
// ~80 GB of points, more than the host setup makes in one sitting and more
// than a machine's disk or pinned memory may hold beside the prover's buffers.
// The scalars (u, v, w, h per signal and domain point) and the tables are
// computed on the host as dev_setup does; every multiplication runs on the GPU
// (ec/fixed_base_cuda.hpp); A, B1, B2, C and H never leave it. α, β, γ, δ and
// IC (n_public + 1 points) are made on the host.
#pragma once

#include "cuzk/groth16/setup.hpp"

namespace cuzk::groth16::gpu {

// The key of dev_setup(m, t, threads, convention) point for point, its A, B1,
// B2, C and H on `device` (ProvingKey::on_gpu; DevKey's vectors for them stay
// empty): only a prover on that GPU can use it, and it cannot be written to a
// file. Progress as dev_setup's. Throws dev_setup's std::invalid_argument, and
// cuda::Error naming the sizes when the GPU has no room for the points.
template <class E>
DevKey<E> dev_setup(const r1cs::ConstraintMatrices<E>& m, const ToxicWaste<E>& t, int device, unsigned threads = 0,
                    Convention convention = Convention::snarkjs);

// The points of a key dev_setup made, copied into d's vectors, after which
// the key no longer refers to the GPU: dev_setup's key as the host setup
// would have made it (`cuzk setup --backend cuda` writes it). The host needs
// the room for every point. A key made on the host is left as it is.
template <class E>
void bring_to_host(DevKey<E>& d);

}  // namespace cuzk::groth16::gpu
