#include "cuzk/io/bellperson_key.hpp"

#include <bit>
#include <stdexcept>

#include "cuzk/groth16/density.hpp"
#include "cuzk/groth16/setup.hpp"
#include "cuzk/io/binfile.hpp"

namespace cuzk::io {

namespace {

using E = Bls12_381;
std::string str(uint64_t v) { return std::to_string(v); }

// A key and the parameters it views, owned together; parameters may serve
// several keys (the same points under other densities).
struct Owned {
  std::shared_ptr<const BellpersonParams<E>> params;
  groth16::ProvingKey<E> key;
};

std::shared_ptr<const groth16::ProvingKey<E>> key_of(std::shared_ptr<const BellpersonParams<E>> params,
                                                     groth16::Density a, groth16::Density b,
                                                     groth16::CoefList<E> coefs) {
  auto owned = std::make_shared<Owned>();
  owned->params = std::move(params);
  const BellpersonParams<E>& p = *owned->params;
  groth16::ProvingKey<E>& k = owned->key;
  k.alpha1 = p.alpha1, k.beta1 = p.beta1, k.delta1 = p.delta1;
  k.beta2 = p.beta2, k.gamma2 = p.gamma2, k.delta2 = p.delta2;
  k.ic = p.ic, k.a = p.a, k.b1 = p.b_g1, k.b2 = p.b_g2, k.c = p.l, k.h = p.h;
  k.coefs = std::move(coefs);
  k.convention = groth16::Convention::bellman;
  k.a_density = std::move(a);
  k.b_density = std::move(b);
  return {owned, &owned->key};
}

}  // namespace

BellpersonParams<E> to_bellperson(const groth16::ProvingKey<E>& key) {
  if (key.convention != groth16::Convention::bellman)
    throw std::invalid_argument(std::string("a bellperson parameter file holds a key in bellman's convention, not ") +
                                groth16::convention_name(key.convention) + "'s");
  if (key.on_gpu) throw std::invalid_argument("the key's points are on a GPU: bring them to the host first");
  BellpersonParams<E> p;
  p.alpha1 = key.alpha1, p.beta1 = key.beta1, p.delta1 = key.delta1;
  p.beta2 = key.beta2, p.gamma2 = key.gamma2, p.delta2 = key.delta2;
  p.ic.assign(key.ic.begin(), key.ic.end());
  p.h.assign(key.h.begin(), key.h.end());
  p.l.assign(key.c.begin(), key.c.end());
  p.a.assign(key.a.begin(), key.a.end());
  p.b_g1.assign(key.b1.begin(), key.b1.end());
  p.b_g2.assign(key.b2.begin(), key.b2.end());
  return p;
}

CircuitDensities check_circuit(const BellpersonCounts& counts, const r1cs::ConstraintMatrices<E>& m,
                               const std::string& name) {
  const auto fail = [&](const std::string& problem) { throw FormatError(name + ": " + problem); };
  const size_t nv = m.n_vars, np = m.n_public, nc = m.n_constraints();
  if (counts.ic != np + 1)
    fail("IC has " + str(counts.ic) + " points, for " + str(counts.ic - 1) + " public inputs; the circuit has " +
         str(np));
  if (counts.l != nv - np - 1)
    fail("L has " + str(counts.l) + " points, one per private signal; the circuit has " + str(nv - np - 1));
  // bellperson's domain: the smallest power of two holding the constraints
  // and the input constraints, and H a point fewer (groth16/reduction.hpp).
  constexpr groth16::QapReduction qap = groth16::reduction(groth16::Convention::bellman);
  const uint64_t domain = uint64_t{1} << qap.log_domain(nc + np);
  if (counts.h != qap.h_terms(domain))
    fail("H has " + str(counts.h) + " points; the circuit's " + str(nc) + " constraints and " + str(np + 1) +
         " input constraints need a domain of " + str(domain) + ", so " + str(qap.h_terms(domain)));
  CircuitDensities d{groth16::column_density(m, 0), groth16::column_density(m, 1)};
  if (counts.a != d.a.count())
    fail("A has " + str(counts.a) + " points; the circuit has " + str(d.a.count()) + " variables in A");
  for (const auto& [what, size] : {std::pair{"B_G1", counts.b_g1}, std::pair{"B_G2", counts.b_g2}})
    if (size != d.b.count())
      fail(std::string(what) + " has " + str(size) + " points; the circuit has " + str(d.b.count()) +
           " variables in B");
  return d;
}

std::shared_ptr<const groth16::ProvingKey<E>> bellman_key(BellpersonParams<E> params,
                                                          const r1cs::ConstraintMatrices<E>& m,
                                                          const std::string& name) {
  return bellman_key(std::make_shared<const BellpersonParams<E>>(std::move(params)), m, name);
}

std::shared_ptr<const groth16::ProvingKey<E>> bellman_key(std::shared_ptr<const BellpersonParams<E>> params,
                                                          const r1cs::ConstraintMatrices<E>& m,
                                                          const std::string& name) {
  const BellpersonParams<E>& p = *params;
  CircuitDensities d =
      check_circuit({p.ic.size(), p.h.size(), p.l.size(), p.a.size(), p.b_g1.size(), p.b_g2.size()}, m, name);
  return key_of(std::move(params), std::move(d.a), std::move(d.b), groth16::coefficient_list(m));
}

std::shared_ptr<const groth16::ProvingKey<E>> bellman_key(std::shared_ptr<const BellpersonParams<E>> params,
                                                          groth16::Density a, groth16::Density b,
                                                          const std::string& name) {
  const auto fail = [&](const std::string& problem) { throw FormatError(name + ": " + problem); };
  const BellpersonParams<E>& p = *params;
  const size_t n_vars = p.ic.size() + p.l.size();
  for (const auto& [what, d] : {std::pair{"A", &a}, std::pair{"B", &b}})
    if (d->n_vars != n_vars || d->words.size() != (n_vars + 63) / 64)
      fail(std::string(what) + "'s density covers " + str(d->n_vars) + " variables; the parameters have " +
           str(p.ic.size()) + " inputs and " + str(p.l.size()) + " private signals");
  if (a.count() != p.a.size()) fail("A has " + str(p.a.size()) + " points; the density names " + str(a.count()));
  for (const auto& [what, size] : {std::pair{"B_G1", p.b_g1.size()}, std::pair{"B_G2", p.b_g2.size()}})
    if (size != b.count()) fail(std::string(what) + " has " + str(size) + " points; the density names " + str(b.count()));
  return key_of(std::move(params), std::move(a), std::move(b), {});
}

groth16::VerifyingKey<E> verifying_key(const BellpersonVk<E>& v) {
  groth16::VerifyingKey<E> vk;
  vk.alpha1 = v.alpha1;
  vk.beta2 = v.beta2;
  vk.gamma2 = v.gamma2;
  vk.delta2 = v.delta2;
  vk.ic = v.ic;
  vk.alphabeta = groth16::PairingOf<E>::pairing(v.alpha1, v.beta2);
  return vk;
}

}  // namespace cuzk::io
