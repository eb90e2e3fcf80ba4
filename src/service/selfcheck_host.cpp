#include <random>

#include "cuzk/ec/bls12_381.hpp"
#include "cuzk/ec/bn254.hpp"
#include "cuzk/ec/encoding.hpp"
#include "cuzk/ec/pairing.hpp"
#include "cuzk/ff/encode.hpp"
#include "cuzk/service/selfcheck.hpp"

namespace cuzk::service {

uint64_t fresh_seed() { return (uint64_t(std::random_device{}()) << 32) | std::random_device{}(); }

namespace {

template <class F, class Rng>
bool field_identities(Rng& rng) {
  for (int i = 0; i < 200; ++i) {
    const F a = ff::random_element<F>(rng), b = ff::random_element<F>(rng), c = ff::random_element<F>(rng);
    if (a.is_zero()) continue;
    if (!(a * a.inverse()).is_one()) return false;
    if ((a + b) * c != a * c + b * c) return false;
    if (a.sqr() != a * a || (a - b) + b != a || a + (-a) != F::zero()) return false;
  }
  return true;
}

template <class F2, class Rng>
bool fq2_identities(Rng& rng) {
  for (int i = 0; i < 50; ++i) {
    const F2 a = ff::random_element<F2>(rng);
    F2 root;
    if (!(a * a.inverse()).c0.is_one() || !a.sqr().sqrt(root) || root.sqr() != a.sqr()) return false;
  }
  return true;
}

template <class C, class Rng>
bool group_laws(const ec::Affine<C>& g, Rng& rng) {
  using Fr = typename C::Fr;
  const Fr a = ff::random_element<Fr>(rng), b = ff::random_element<Fr>(rng);
  const auto pa = ec::mul_vartime(g, a), pb = ec::mul_vartime(g, b), pab = ec::mul_vartime(g, a + b);
  const auto x = ec::Xyzz<C>::from(pa.to_affine()).add(pb.to_affine());
  return g.on_curve() && ec::in_subgroup(g) && pa.add(pb) == pab && x.to_jacobian() == pab &&
         ec::in_subgroup(pab.to_affine()) && pa.add(-pa).is_inf();
}

template <class Fr, class G1, class G2, class Pair, class Rng>
bool bilinear(const G1& p, const G2& q, Pair pairing, Rng& rng) {
  const Fr a = ff::random_element<Fr>(rng), b = ff::random_element<Fr>(rng);
  uint64_t ab[Fr::N];
  (a * b).to_canonical(ab);
  const auto e = pairing(p, q);
  const auto lhs = pairing(ec::mul_vartime(p, a).to_affine(), ec::mul_vartime(q, b).to_affine());
  return !e.is_one() && lhs == e.pow(ab, Fr::N);
}

template <class C, class Rng>
bool zcash_round_trip(const ec::Affine<C>& g, Rng& rng) {
  const auto p = ec::mul_vartime(g, ff::random_element<typename C::Fr>(rng)).to_affine();
  uint8_t c[ec::zcash::compressed_size<C>], u[ec::zcash::uncompressed_size<C>];
  ec::zcash::encode_compressed<C>(p, c);
  ec::zcash::encode_uncompressed<C>(p, u);
  ec::Affine<C> pc, pu;
  return ec::zcash::decode<C>(c, pc) == ec::DecodeError::ok && ec::zcash::decode<C>(u, pu) == ec::DecodeError::ok &&
         pc == p && pu == p;
}

// The checks every curve gets; Tower names its fields, the generators its groups.
template <class Tower, class G1, class G2, class Pair, class Rng, class Check>
void curve_checks(const std::string& curve, const ec::Affine<G1>& g1, const ec::Affine<G2>& g2, Pair pairing,
                  Rng& rng, Check& check) {
  using Fr = typename G1::Fr;
  check(curve + " Fq field identities", field_identities<typename Tower::Fq>(rng));
  check(curve + " Fr field identities", field_identities<Fr>(rng));
  check(curve + " Fq2 inverse and sqrt", fq2_identities<typename Tower::Fq2>(rng));
  check(curve + " G1 group laws and subgroup", group_laws(g1, rng));
  check(curve + " G2 group laws and subgroup", group_laws(g2, rng));
  check(curve + " pairing bilinear and non-degenerate", bilinear<Fr>(g1, g2, pairing, rng));
}

}  // namespace

int selfcheck_host(uint64_t seed, const CheckReporter& report) {
  std::mt19937_64 rng(seed);
  int failed = 0;
  auto check = [&](const std::string& name, bool ok) {
    report(name, ok);
    failed += !ok;
  };
  curve_checks<ff::bn254::Tower>("bn254", ec::bn254::g1_generator(), ec::bn254::g2_generator(),
                                 &ec::bn254::pairing, rng, check);
  curve_checks<ff::bls12_381::Tower>("bls12_381", ec::bls12_381::g1_generator(), ec::bls12_381::g2_generator(),
                                     &ec::bls12_381::pairing, rng, check);
  check("bls12_381 G1 ZCash encoding round trip", zcash_round_trip(ec::bls12_381::g1_generator(), rng));
  check("bls12_381 G2 ZCash encoding round trip", zcash_round_trip(ec::bls12_381::g2_generator(), rng));
  return failed;
}

}  // namespace cuzk::service
