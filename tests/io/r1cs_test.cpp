// The .r1cs reader: circom's fixtures against `snarkjs r1cs info`, every
// constraint satisfied by snarkjs's witness, and corrupted copies failing with
// a message naming the problem.
#include "cuzk/io/r1cs.hpp"

#include <gtest/gtest.h>

#include "cuzk/io/wtns.hpp"
#include "io_test_support.hpp"

namespace cuzk::test {
namespace {

using ec::Bls12_381;
using ec::Bn254;

template <class E>
typename E::Fr eval(std::span<const r1cs::Term<typename E::Fr>> lc, const std::vector<typename E::Fr>& w) {
  auto acc = E::Fr::zero();
  for (const auto& t : lc) acc += t.coef * w[t.wire];
  return acc;
}

// The index of the first constraint that w does not satisfy, or nConstraints.
template <class E>
uint32_t first_unsatisfied(const io::R1cs& r1cs, const std::vector<typename E::Fr>& w) {
  const auto& sys = r1cs.as<E>();
  for (uint32_t c = 0; c < r1cs.header().n_constraints; ++c)
    if (eval<E>(sys.lc(c, 0), w) * eval<E>(sys.lc(c, 1), w) != eval<E>(sys.lc(c, 2), w)) return c;
  return r1cs.header().n_constraints;
}

template <class E>
void check_satisfied(const io::R1cs& r1cs, const io::Witness& wit, const CircuitFacts& f) {
  auto w = wit.as<E>();
  ASSERT_EQ(w.size(), r1cs.header().n_wires);
  EXPECT_EQ(first_unsatisfied<E>(r1cs, w), f.n_constraints);
  // Not vacuous: a wrong private value breaks some constraint.
  w.back() += E::Fr::one();
  EXPECT_LT(first_unsatisfied<E>(r1cs, w), f.n_constraints);

  // The linear circuit's last constraint has empty A and B rows.
  size_t linear = 0;
  for (uint32_t c = 0; c < f.n_constraints; ++c)
    linear += r1cs.as<E>().lc(c, 0).empty() && r1cs.as<E>().lc(c, 1).empty();
  EXPECT_EQ(linear, std::string(f.name) == "linear" ? 1u : 0u);
}

TEST(R1cs, FixturesMatchSnarkjsAndTheWitnessSatisfiesThem) {
  for (const char* curve : kCurves)
    for (const auto& f : kCircuits) {
      SCOPED_TRACE(std::string(curve) + "/" + f.name);
      const auto r1cs = io::R1cs::open(fixture(curve, f.name, "circuit.r1cs"));
      const auto& h = r1cs.header();
      EXPECT_EQ(ec::curve_name(h.curve), std::string(curve));
      EXPECT_EQ(h.n8, 32u);
      EXPECT_EQ(h.n_wires, f.n_vars);
      EXPECT_EQ(h.n_constraints, f.n_constraints);
      EXPECT_EQ(h.n_pub_out, f.n_pub_out);
      EXPECT_EQ(h.n_pub_in, f.n_pub_in);
      EXPECT_EQ(h.n_prv_in, f.n_prv_in);
      EXPECT_EQ(h.n_labels, f.n_labels);
      EXPECT_EQ(h.n_pub_out + h.n_pub_in, f.n_public);
      ASSERT_EQ(r1cs.labels().size(), f.n_vars);
      EXPECT_EQ(r1cs.labels()[0], 0u);

      const auto w = io::read_wtns(fixture(curve, f.name, "witness.wtns"));
      if (h.curve == ec::Curve::bn254)
        check_satisfied<Bn254>(r1cs, w, f);
      else
        check_satisfied<Bls12_381>(r1cs, w, f);
    }
}

TEST(R1cs, LabelsAreOptional) {
  TempDir dir;
  Container c = Container::load(fixture("bls12381", "linear", "circuit.r1cs"));
  std::erase_if(c.sections, [](const auto& s) { return s.id == 3; });
  c.save(dir / "nolabels.r1cs");
  const auto r1cs = io::R1cs::open(dir / "nolabels.r1cs");
  EXPECT_TRUE(r1cs.labels().empty());
  EXPECT_EQ(r1cs.header().n_constraints, 41u);
}

TEST(R1cs, BadInputsFailWithAClearMessage) {
  TempDir dir;
  const fs::path good = fixture("bn128", "multiplier", "circuit.r1cs");
  ASSERT_NO_THROW(io::R1cs::open(good));
  const CircuitFacts& f = kCircuits[0];
  const Container c = Container::load(good);
  auto cases = container_cases(good, "r1cs");

  const auto edit = [&](std::string name, std::function<void(Container&)> change, std::string expect) {
    Container d = c;
    change(d);
    cases.push_back({name, [d](const fs::path& p) { d.save(p); }, std::move(expect)});
  };
  const auto set_u32 = [](uint32_t id, size_t at, uint32_t x) {
    return [=](Container& d) { put<uint32_t>(d.section(id).data, at, x); };
  };
  const auto plant = [](uint32_t id, size_t at, Bytes x) {
    return [=](Container& d) { std::copy(x.begin(), x.end(), d.section(id).data.begin() + at); };
  };
  const std::string wires = std::to_string(f.n_vars);
  // Header (section 1): n8, prime, nWires, nPubOut, nPubIn, nPrvIn, nLabels (u64), nConstraints.
  constexpr size_t at_wires = 36, at_prv = 48, at_constraints = 60;
  edit("n8_8", set_u32(1, 0, 8), "section 1: n8 = 8, but the supported scalar fields have 32-byte elements");
  edit("prime_flipped", [](Container& d) { d.section(1).data[10] ^= 1; },
       "is not the scalar field of bn128 or bls12381");
  edit("header_long", [](Container& d) { d.section(1).data.push_back(0); },
       "section 1: 1 byte left over after the header");
  edit("header_short", [](Container& d) { d.section(1).data.resize(60); },
       "section 1: truncated: reading nConstraints");
  edit("too_many_inputs", set_u32(1, at_prv, f.n_vars),
       "the constant, 1 outputs and 1 + " + wires + " inputs need " + std::to_string(f.n_vars + 3) +
           " wires but nWires is " + wires);
  edit("one_more_constraint", set_u32(1, at_constraints, f.n_constraints + 1),
       "section 2: truncated: reading a term count");
  edit("one_less_constraint", set_u32(1, at_constraints, f.n_constraints - 1),
       "120 bytes left over after the " + std::to_string(f.n_constraints - 1) + " constraints");
  edit("constraint_count_huge", set_u32(1, at_constraints, 0xffffffffu),
       "section 2: 39120 bytes are too few for 4294967295 constraints of at least 12 bytes each");
  // Constraint 0 of the multiplier: A = 1 term, B = 1 term, C = 2 terms.
  // Each LC: u32 nTerms, then (u32 wire, 32-byte coefficient) per term.
  edit("wire_big", set_u32(2, 4, f.n_vars), "constraint 0, A term 0: wire " + wires + " is not below nWires " + wires);
  edit("fewer_wires", set_u32(1, at_wires, 3), "wires but nWires is 3");
  edit("coef_is_prime", plant(2, 8, modulus_bytes<ff::bn254::Fr>()),
       "section 2: constraint 0, A term 0: coefficient is not below the prime");
  edit("c_coef_ones", plant(2, 40 + 40 + 4 + 4, Bytes(32, 0xff)), "constraint 0, C term 0: coefficient is not below");
  edit("term_count_huge", set_u32(2, 0, 0x10000000),
       "section 2: constraint 0 claims 268435456 A terms but only");
  edit("constraints_cut", [](Container& d) { d.section(2).data.resize(d.section(2).data.size() - 3); },
       "section 2: constraint 250 claims 1 C terms but only 33 bytes remain");
  edit("missing_constraints", [](Container& d) { std::erase_if(d.sections, [](auto& s) { return s.id == 2; }); },
       "section 2 is missing");
  edit("custom_gates", [](Container& d) { d.sections.push_back({4, Bytes(4, 0), std::nullopt}); },
       "has custom gates (sections 4 and 5), which only PLONK circuits use");
  edit("labels_short", [](Container& d) { d.section(3).data.resize(d.section(3).data.size() - 8); },
       "section 3 is " + std::to_string(8 * (f.n_vars - 1)) + " bytes but " + wires + " × 8 bytes are needed for " +
           wires + " wire labels");
  edit("label_big", [&](Container& d) { put<uint64_t>(d.section(3).data, 8 * 7, f.n_labels); },
       "section 3: wire 7 has label " + std::to_string(f.n_labels) + ", not below nLabels " +
           std::to_string(f.n_labels));
  run_bad_cases(dir, cases, [](const fs::path& p) { io::R1cs::open(p); }, ".r1cs");
}

}  // namespace
}  // namespace cuzk::test
