// The three passes (shape, matrices, witness) over the same circuit code: wire
// numbering with interleaved allocation, lc merging, the domain rule, a/b/c
// and the public rows, buffer checks, and unsatisfied witnesses.
#include <gtest/gtest.h>

#include <string>

#include "circuit_test_support.hpp"
#include "cuzk/circuit/examples/hash_chain.hpp"
#include "cuzk/circuit/examples/partition.hpp"
#include "cuzk/circuit/tamper.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using circuit::Variable;

template <class E>
struct Synthesis : ::testing::Test {
  using Fr = typename E::Fr;
  std::mt19937_64 rng = test_rng();
  Fr random() { return ff::random_element<Fr>(rng); }
};
TYPED_TEST_SUITE(Synthesis, Curves);

TEST(DomainSize, FollowsSnarkjsRule) {
  const auto domain = [](uint64_t n_constraints, uint32_t n_public) {
    return circuit::domain_size_for({n_public, 1 + n_public, n_constraints});
  };
  EXPECT_EQ(domain(0, 0), 1u);
  EXPECT_EQ(domain(1, 0), 2u);
  EXPECT_EQ(domain(3, 1), 8u);
  EXPECT_EQ(domain(1020, 3), 1024u);
  EXPECT_EQ(domain(1021, 3), 2048u);
  EXPECT_EQ(domain((1u << 27) - 4, 3), size_t(1) << 27);
}

// Private and public allocations interleaved (p, X, q, Y): inputs take wires
// 1, 2 whatever their order, aux follow; repeated and cancelling terms merge.
TYPED_TEST(Synthesis, InterleavedWiresAndMergedTerms) {
  SEED_TRACE();
  using Fr = typename TestFixture::Fr;
  const Fr p = this->random(), q = this->random(), three = Fr::from_uint(3);
  Variable vp{}, vx{}, vq{}, vy{};
  const auto toy = circuit_of<TypeParam>([&](auto& cs) {
    vp = cs.alloc("p", [&](const auto&) { return p; });
    vx = cs.alloc_input("X", [&](const auto& v) { return v[vp] * q; });
    vq = cs.alloc("q", [&](const auto&) { return q; });
    vy = cs.alloc_input("Y", [&](const auto& v) { return v[vp].dbl() + three; });
    cs.enforce("toy.mul", vp, vq, vx);
    cs.enforce("toy.lin", [&](auto lc) { return lc + vp + vq + vp - vq + three; }, Variable::one(), vy);
  });
  const auto m = circuit::constraint_matrices(toy);
  EXPECT_EQ(circuit::shape_of(toy), (circuit::Shape{2, 5, 2}));
  ASSERT_EQ(m.n_vars, 5u);
  ASSERT_EQ(m.n_public, 2u);
  ASSERT_EQ(m.n_constraints(), 2u);
  using T = std::vector<std::pair<uint32_t, Fr>>;
  const auto terms = [&](size_t i, int k) {
    T out;
    for (const auto& t : m.lc(i, k)) out.emplace_back(t.wire, t.coef);
    return out;
  };
  EXPECT_EQ(terms(0, 0), (T{{3, Fr::one()}}));
  EXPECT_EQ(terms(0, 1), (T{{4, Fr::one()}}));
  EXPECT_EQ(terms(0, 2), (T{{1, Fr::one()}}));
  EXPECT_EQ(terms(1, 0), (T{{0, three}, {3, Fr::from_uint(2)}}));  // q - q dropped
  EXPECT_EQ(terms(1, 1), (T{{0, Fr::one()}}));
  EXPECT_EQ(terms(1, 2), (T{{2, Fr::one()}}));

  const auto s = synthesize(toy);
  EXPECT_EQ(s.w, (std::vector<Fr>{Fr::one(), p * q, p.dbl() + three, p, q}));
  EXPECT_EQ(s.value(vq), q);
  EXPECT_EQ(s.value(vy), p.dbl() + three);
  expect_abc_layout(m, s);
}

template <class C>
void expect_passes_agree(const C& c) {
  const auto shape = circuit::shape_of(c);
  const auto m = circuit::constraint_matrices(c);
  EXPECT_EQ(m.n_vars, shape.n_vars);
  EXPECT_EQ(m.n_public, shape.n_public);
  EXPECT_EQ(m.n_constraints(), shape.n_constraints);
  const auto s = synthesize(c);
  EXPECT_EQ(first_unsatisfied(m, std::span<const circuit::FrOf<C>>(s.w)), std::nullopt);
  expect_abc_layout(m, s);
}

TYPED_TEST(Synthesis, ExamplesPassesAgreeAndWitnessSatisfiesMatrices) {
  SEED_TRACE();
  for (uint64_t n : {1u << 10, 5000u, 1u << 13}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    expect_passes_agree(circuit::HashChain<TypeParam>::for_constraints(n, this->rng()));
    expect_passes_agree(circuit::Partition<TypeParam>::for_constraints(n, this->rng()));
  }
}

TYPED_TEST(Synthesis, WrongBufferSizesThrowBeforeWriting) {
  using Fr = typename TestFixture::Fr;
  const auto chain = circuit::HashChain<TypeParam>::for_constraints(1 << 10);
  const auto shape = circuit::shape_of(chain);
  const size_t rows = circuit::domain_size_for(shape);
  const Fr mark = Fr::from_uint(7);
  const auto attempt = [&](size_t nw, size_t na, size_t nb, size_t nc) {
    std::vector<Fr> w(nw, mark), a(na, mark), b(nb, mark), c(nc, mark);
    EXPECT_THROW(circuit::synthesize_witness(chain, w, a, b, c), std::invalid_argument)
        << nw << " " << na << " " << nb << " " << nc;
    for (const auto* v : {&w, &a, &b, &c})
      for (const Fr& x : *v) ASSERT_EQ(x, mark);
  };
  attempt(shape.n_vars - 1, rows, rows, rows);
  attempt(shape.n_vars + 1, rows, rows, rows);
  attempt(shape.n_vars, rows / 2, rows, rows);
  attempt(shape.n_vars, rows, 2 * rows, rows);
  attempt(shape.n_vars, rows, rows, rows - 1);
  attempt(shape.n_vars, 0, rows, rows);  // empty a/b/c means all three
  attempt(shape.n_vars, 0, 0, rows);
}

// With a, b and c all empty only w is written: the same w as the full pass,
// and an unsatisfied constraint is still caught.
TYPED_TEST(Synthesis, WitnessOnlyPassWritesTheSameWitnessAndStillChecks) {
  using Fr = typename TestFixture::Fr;
  SEED_TRACE();
  const auto part = circuit::Partition<TypeParam>::for_constraints(1 << 12, this->rng());
  const auto shape = circuit::shape_of(part);
  const size_t rows = circuit::domain_size_for(shape);
  std::vector<Fr> w(shape.n_vars), only(shape.n_vars, Fr::from_uint(7)), a(rows), b(rows), c(rows);
  circuit::synthesize_witness(part, std::span<Fr>(w), std::span<Fr>(a), std::span<Fr>(b), std::span<Fr>(c));
  circuit::synthesize_witness(part, std::span<Fr>(only), {}, {}, {});
  EXPECT_EQ(only, w);
  const auto chain = circuit::HashChain<TypeParam>::for_constraints(1 << 10, this->rng());
  std::vector<Fr> wc(circuit::shape_of(chain).n_vars);
  EXPECT_THROW(circuit::synthesize_witness(circuit::Tampered{chain, 2}, std::span<Fr>(wc), {}, {}, {}),
               circuit::Unsatisfied);
}

// The failing constraint is the first one the matrices say is violated by
// what was written, and the message names it.
template <class C>
void expect_unsatisfied_at(const C& tampered, const r1cs::ConstraintMatrices<typename C::Curve>& m,
                           std::optional<uint64_t> expected) {
  using Fr = circuit::FrOf<C>;
  const auto shape = circuit::shape_of(tampered);
  const size_t rows = circuit::domain_size_for(shape);
  std::vector<Fr> w(shape.n_vars), a(rows), b(rows), c(rows);
  try {
    circuit::synthesize_witness(tampered, w, a, b, c);
    ASSERT_EQ(expected, std::nullopt) << "no Unsatisfied";
    EXPECT_EQ(first_unsatisfied(m, std::span<const Fr>(w)), std::nullopt);
  } catch (const circuit::Unsatisfied& e) {
    const uint64_t k = e.constraint();
    if (expected) {
      EXPECT_EQ(k, *expected);
    }
    EXPECT_NE(std::string(e.what()).find("constraint " + std::to_string(k) + " ("), std::string::npos) << e.what();
    // w holds every variable of constraint k (they are allocated before it).
    const auto prefix = first_unsatisfied(m, std::span<const Fr>(w));
    EXPECT_EQ(prefix, k);
  }
}

TYPED_TEST(Synthesis, TamperedHashChainThrowsUnsatisfied) {
  SEED_TRACE();
  const auto chain = circuit::HashChain<TypeParam>::for_constraints(1 << 10, this->rng());
  const auto m = circuit::constraint_matrices(chain);
  const uint64_t step = this->rng() % chain.steps;
  // Aux 3·step + 2 is that round's t⁵, checked by constraint 3·step + 2.
  expect_unsatisfied_at(circuit::Tampered{chain, 3 * step + 2}, m, 3 * step + 2);
  try {
    synthesize(circuit::Tampered{chain, 3 * step});
    FAIL() << "no Unsatisfied";
  } catch (const circuit::Unsatisfied& e) {
    EXPECT_EQ(std::string(e.what()), "circuit: constraint " + std::to_string(3 * step) + " (mimc.t2) is not satisfied");
  }
}

// Any private value of a Partition is either determined by the constraints
// (tampering fails) or a free sibling (the witness stays consistent).
TYPED_TEST(Synthesis, TamperedPartitionThrowsUnsatisfiedOrStaysConsistent) {
  SEED_TRACE();
  const auto part = circuit::Partition<TypeParam>::for_constraints(1 << 13, this->rng());
  const auto m = circuit::constraint_matrices(part);
  const uint32_t n_aux = m.n_vars - 1 - m.n_public;
  for (int trial = 0; trial < 8; ++trial) {
    const uint64_t k = this->rng() % n_aux;
    SCOPED_TRACE("aux " + std::to_string(k));
    expect_unsatisfied_at(circuit::Tampered{part, k}, m, std::nullopt);
  }
  expect_unsatisfied_at(circuit::Tampered{part, 0}, m, 0);  // the first MiMC t²
}

// A circuit whose structure changes between passes is refused, not written
// past the buffers.
TYPED_TEST(Synthesis, StructureThatDependsOnCallsIsRefused) {
  int calls = 0;
  const auto unstable = circuit_of<TypeParam>([&](auto& cs) {
    const int n = ++calls;
    for (int i = 0; i < n; ++i) cs.alloc("x", [](const auto&) { return TestFixture::Fr::one(); });
  });
  EXPECT_THROW(synthesize(unstable), std::logic_error);
  EXPECT_THROW(circuit::constraint_matrices(unstable), std::logic_error);
}

}  // namespace
}  // namespace cuzk::test
