#!/usr/bin/env node
// Test-vector oracle: fresh BN254 / BLS12-381 vectors from @noble/curves (an independent
// implementation) for the cuzk C++ tests.  Usage: node tests/oracle/noble_vectors.mjs <seed> [count]
// Prints one JSON object {seed, bn254: CURVE, bls12_381: CURVE}, CURVE = {r, p,
// miller_loop_convention, noble_final_exp_multiplier, g1: GROUP, g2: GROUP, pairing: [{p,q,e}],
// bilinear: {a,b,e_ab}}, GROUP = {generator, mul: [{k,p}], add: [{a,b,sum}], uncompressed: [{p,hex}],
// compressed: [{p,hex}], non_subgroup: [POINT]}. Field elements are canonical (non-Montgomery)
// integers as decimal strings; Fq2 = [c0, c1]; G1 = [x, y]; G2 = [[x.c0,x.c1],[y.c0,y.c1]];
// infinity = all zeros; Fq12 = 12 strings c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1.
//
// FINDINGS (checked against @noble/curves 2.4.0; the script re-checks them at run time):
//
// * Towers: noble uses Fq2 = Fq[u]/(u^2+1), Fq6 = Fq2[v]/(v^3 - xi), Fq12 = Fq6[w]/(w^2 - v),
//   xi = 9+u (BN254) and 1+u (BLS12-381), elements stored as {c0,c1[,c2]} = c0 + c1*X (+ c2*X^2).
//   That is exactly our tower, so no conversion is needed (checkTower() asserts it).
//
// * Final exponent: noble's pairing() is NOT exactly f^((p^12-1)/r); it is a fixed power e^k of
//   the canonical reduced pairing e = f^((p^12-1)/r):
//     - BN254: k = 2x(6x^2+3x+1), x = 4965661367192848881. noble's hard part is the
//       Fuentes-Castaneda-Knapp-Rodriguez-Henriquez chain, i.e. exponent
//       l0 + l1 p + l2 p^2 + l3 p^3 with l0 = 1+6x+12x^2+12x^3, l1 = 4x+6x^2+12x^3,
//       l2 = 6x+6x^2+12x^3, l3 = -1+4x+6x^2+12x^3, which equals k*(p^4-p^2+1)/r.
//     - BLS12-381: k = 3. The hard part computes 3*(p^4-p^2+1)/r via
//       (x-1)^2 (x+p)(x^2+p^2-1) + 3 (Hayashida-Hayasaka-Teruya).
//   We emit the canonical value e = noble^(k^-1 mod r) (one 255-bit Fp12 pow per pairing), and
//   once per curve compare it with noble's raw Miller loop value raised to the full
//   (p^12-1)/r with Fp12.pow (that check is the ground truth; k is only a shortcut).
//
// * Miller loop (see MILLER below, also emitted as "miller_loop_convention"): loop scalars
//   6x+2 (BN254, x > 0, plus the two Frobenius lines) and |x| with a final conjugation
//   (BLS12-381, x < 0). Lines are evaluated projectively with Fq2 scale factors and NAF digits,
//   so noble's raw f is NOT comparable with another implementation's f; only the reduced value
//   is (Fq2/Fq6-subfield factors and vertical lines die in the final exponentiation).
import { createHash } from 'node:crypto';
import { bn254 } from '@noble/curves/bn254.js';
import { bls12_381 } from '@noble/curves/bls12-381.js';

const MILLER = {
  bn254:
    'optimal ate, D-type (divisive) twist, e(P in G1, Q in G2): ' +
    'f = f_{6x+2,Q}(P) * l_{T,pi(Q)}(P) * l_{T+pi(Q),-pi^2(Q)}(P), T = [6x+2]Q, ' +
    'x = 4965661367192848881 > 0 (6x+2 = 29793968203157093288, walked as NAF, no conjugation), ' +
    'pi = p-power Frobenius on the untwisted curve; e = f^((p^12-1)/r) exactly',
  bls12_381:
    'optimal ate, M-type (multiplicative) twist, e(P in G1, Q in G2): ' +
    'f = conj(f_{|x|,Q}(P)) (= f_{x,Q}(P) up to verticals), x = -0xd201000000010000 < 0, ' +
    '|x| walked as NAF, no Frobenius lines; conj = p^6-Frobenius = inverse after final exp; ' +
    'e = f^((p^12-1)/r) exactly',
};
const BN_X = 4965661367192848881n;
const NOBLE_K = { bn254: 2n * BN_X * (6n * BN_X * BN_X + 3n * BN_X + 1n), bls12_381: 3n };

function die(msg) {
  process.stderr.write(`noble_vectors: ${msg}\nusage: node tests/oracle/noble_vectors.mjs <seed> [count]\n`);
  process.exit(2);
}
const args = process.argv.slice(2);
if (args.length < 1 || args.length > 2) die('expected 1 or 2 arguments');
const SEED = args[0];
if (SEED.length === 0 || SEED.length > 256) die('seed must be a non-empty string of <= 256 chars');
if (args.length === 2 && !/^[0-9]{1,3}$/.test(args[1])) die(`bad count "${args[1]}"`);
const COUNT = args.length === 2 ? Number(args[1]) : 4;
if (COUNT < 1 || COUNT > 256) die('count must be in 1..256');

function check(cond, what) {
  if (!cond) throw new Error(`self-check failed: ${what}`);
}

// Deterministic PRNG: block i = SHA-256(seed || "/" || label || "/" || i). A draw takes two
// blocks (512 bits) and reduces them mod m, so the bias is < 2^-128 even for the 381-bit p.
// Each curve has its own label so its vectors do not depend on the other curve's code.
function prng(label) {
  let ctr = 0;
  const block = () => createHash('sha256').update(`${SEED}/${label}/${ctr++}`).digest('hex');
  return (m) => BigInt('0x' + block() + block()) % m;
}

function modInv(a, m) {
  // extended Euclid; m prime, a != 0 mod m
  let [r0, r1, s0, s1] = [((a % m) + m) % m, m, 1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1] = [r1, r0 - q * r1];
    [s0, s1] = [s1, s0 - q * s1];
  }
  check(r0 === 1n, 'modInv: not invertible');
  return ((s0 % m) + m) % m;
}

// naive double-and-add (no GLV/endomorphism, so it is valid for points outside the subgroup)
function naiveMul(P, k) {
  let acc = P.constructor.ZERO;
  for (let i = k.toString(2).length - 1; i >= 0; i--) {
    acc = acc.double();
    if ((k >> BigInt(i)) & 1n) acc = acc.add(P);
  }
  return acc;
}

function makeCurve(name, c) {
  const { Fp, Fp2, Fp6, Fp12, Fr } = c.fields;
  const p = Fp.ORDER;
  const r = Fr.ORDER;
  const rand = prng(name);
  const kInv = modInv(NOBLE_K[name] % r, r);
  const s = (x) => x.toString(10);

  // --- tower check: u^2 = -1, v^3 = xi, w^2 = v, xi = 9+u / 1+u --------------------------
  const xi = name === 'bn254' ? { c0: 9n, c1: 1n } : { c0: 1n, c1: 1n };
  const u = Fp2.create({ c0: 0n, c1: 1n });
  check(Fp2.eql(Fp2.sqr(u), Fp2.neg(Fp2.ONE)), `${name}: u^2 != -1`);
  const v = { c0: Fp2.ZERO, c1: Fp2.ONE, c2: Fp2.ZERO };
  check(Fp6.eql(Fp6.mul(Fp6.sqr(v), v), { c0: Fp2.create(xi), c1: Fp2.ZERO, c2: Fp2.ZERO }), `${name}: v^3 != xi`);
  const w = { c0: Fp6.ZERO, c1: Fp6.ONE };
  check(Fp12.eql(Fp12.sqr(w), { c0: v, c1: Fp6.ZERO }), `${name}: w^2 != v`);

  // --- serialization with on-curve checks ----------------------------------------------------
  const fp2 = (a) => [s(a.c0), s(a.c1)];
  const fq12 = (e) => [e.c0, e.c1].flatMap((a6) => [a6.c0, a6.c1, a6.c2].flatMap(fp2));
  const groups = {
    g1: { G: c.G1.Point, F: Fp, b: c.G1.Point.CURVE().b, enc: (x) => s(x) },
    g2: { G: c.G2.Point, F: Fp2, b: c.G2.Point.CURVE().b, enc: fp2 },
  };
  const onCurve = ({ F, b }, x, y) => F.eql(F.sqr(y), F.add(F.mul(F.sqr(x), x), b));
  // subgroup=true additionally runs noble's full validity check (on curve + torsion-free),
  // memoized per point object because the torsion check is the slow part
  const validated = new WeakSet();
  function pt(g, P, subgroup = true) {
    if (P.is0()) return [g.enc(g.F.ZERO), g.enc(g.F.ZERO)];
    const { x, y } = P.toAffine();
    check(onCurve(g, x, y), `${name}: emitted point not on curve`);
    if (subgroup && !validated.has(P)) P.assertValidity(), validated.add(P);
    return [g.enc(x), g.enc(y)];
  }

  // --- pairing: canonical value = noble^(k^-1 mod r); infinity pairs give 1 -----------------
  const pair = (P, Q) => (P.is0() || Q.is0() ? Fp12.ONE : Fp12.pow(c.pairing(P, Q), kInv));
  let exactChecked = false;
  function pairChecked(P, Q) {
    const e = pair(P, Q);
    if (!exactChecked && !P.is0() && !Q.is0()) {
      // ground truth once per curve: Miller loop value to the exact exponent (p^12-1)/r
      const f = c.pairing(P, Q, false);
      check(Fp12.eql(Fp12.pow(f, (p ** 12n - 1n) / r), e), `${name}: exact final exponent mismatch`);
      check(Fp12.eql(Fp12.pow(e, NOBLE_K[name] % r), c.pairing(P, Q)), `${name}: noble multiplier k`);
      exactChecked = true;
    }
    return e;
  }

  const G1 = c.G1.Point, G2 = c.G2.Point;
  const mulG = (G, k) => (k === 0n ? G.ZERO : G.BASE.multiply(k));
  const randScalar = () => rand(r);

  function group(key) {
    const g = groups[key];
    const { G } = g;
    const out = { generator: pt(g, G.BASE) };
    // k*generator: edge scalars, then random ones
    const ks = [0n, 1n, 2n, r - 1n];
    for (let i = 0; i < COUNT; i++) ks.push(randScalar());
    out.mul = ks.map((k) => ({ k: s(k), p: pt(g, mulG(G, k)) }));
    // additions: random pairs, doubling, a + (-a), infinity + b; cross-checked against the
    // scalar sum (ka + kb)*G computed by a different code path
    const adds = [];
    for (let i = 0; i < COUNT; i++) adds.push([randScalar(), randScalar()]);
    const ka = randScalar();
    adds.push([ka, ka], [ka, (r - ka) % r], [0n, randScalar()]);
    out.add = adds.map(([ka, kb]) => {
      const x = mulG(G, ka), y = mulG(G, kb);
      const sum = x.add(y);
      check(sum.equals(mulG(G, (ka + kb) % r)), `${name}.${key}: add vs scalar sum`);
      return { a: pt(g, x), b: pt(g, y), sum: pt(g, sum) };
    });
    // Encodings, noble's own formats; the last entry is the point at infinity.
    //  BLS12-381 (ZCash): big-endian x (G2: x.c1 || x.c0) [|| y likewise when uncompressed];
    //    byte0 flags: 0x80 compressed, 0x40 infinity (rest zero), 0x20 (compressed, finite only)
    //    y lexicographically largest: y > (p-1)/2, for G2 judged on y.c1 unless it is 0, else y.c0.
    //  BN254 (SEC1-style, no EIP standard): 04 || x || y uncompressed, 02/03 || x compressed
    //    (03 iff y is "odd": G1 y mod 2; G2 sgn0 = c0 mod 2, or c1 mod 2 when c0 == 0), each Fq
    //    32 bytes BE, G2 coords as c0 || c1 (NOT EIP-197's imaginary-first order); infinity = "00".
    const encPts = [];
    for (let i = 0; i < COUNT; i++) encPts.push(mulG(G, randScalar()));
    encPts.push(G.ZERO);
    const encode = (compressed) =>
      encPts.map((P) => {
        const hex = P.toHex(compressed);
        check(G.fromHex(hex).equals(P), `${name}.${key}: encoding round trip`); // noble's decoder
        return { p: pt(g, P), hex };
      });
    out.uncompressed = encode(false);
    out.compressed = encode(true);
    // points on the curve but outside the order-r subgroup (raw sqrt, no cofactor clearing)
    out.non_subgroup = [];
    if (G.CURVE().h !== 1n) {
      const randF = key === 'g1' ? () => rand(p) : () => Fp2.create({ c0: rand(p), c1: rand(p) });
      while (out.non_subgroup.length < COUNT) {
        const x = randF();
        const rhs = g.F.add(g.F.mul(g.F.sqr(x), x), g.b);
        let y;
        try {
          y = g.F.sqrt(rhs);
        } catch {
          continue; // x^3 + b is a non-residue: try another x
        }
        if (!y || !onCurve(g, x, y)) continue;
        const P = G.fromAffine({ x, y });
        if (naiveMul(P, r).is0()) continue; // landed in the subgroup (probability ~1/h)
        check(!P.isTorsionFree(), `${name}.${key}: noble torsion check disagrees`);
        out.non_subgroup.push(pt(g, P, false));
      }
    }
    return out;
  }

  const res = {
    r: s(r),
    p: s(p),
    miller_loop_convention: MILLER[name],
    // informational: noble's pairing() returns e^k for this k (e = the emitted canonical value)
    noble_final_exp_multiplier: s(NOBLE_K[name]),
    g1: group('g1'),
    g2: group('g2'),
  };

  // pairings: generators, COUNT random pairs, then P = infinity and Q = infinity
  const pairs = [[G1.BASE, G2.BASE]];
  for (let i = 0; i < COUNT; i++) pairs.push([mulG(G1, randScalar()), mulG(G2, randScalar())]);
  pairs.push([G1.ZERO, mulG(G2, randScalar())], [mulG(G1, randScalar()), G2.ZERO]);
  const eGen = pairChecked(G1.BASE, G2.BASE);
  res.pairing = pairs.map(([P, Q]) => ({
    p: pt(groups.g1, P),
    q: pt(groups.g2, Q),
    e: fq12(P === G1.BASE && Q === G2.BASE ? eGen : pairChecked(P, Q)),
  }));

  // bilinearity: e(aG1, bG2) == e(G1, G2)^(ab), and the value is a non-trivial r-th root of 1
  const A = randScalar() || 1n, B = randScalar() || 1n;
  const eAB = pairChecked(mulG(G1, A), mulG(G2, B));
  check(Fp12.eql(eAB, Fp12.pow(eGen, (A * B) % r)), `${name}: bilinearity`);
  check(!Fp12.eql(eGen, Fp12.ONE) && Fp12.eql(Fp12.pow(eGen, r), Fp12.ONE), `${name}: e(G1,G2) order`);
  res.bilinear = { a: s(A), b: s(B), e_ab: fq12(eAB) };
  return res;
}

try {
  const out = { seed: SEED, bn254: makeCurve('bn254', bn254), bls12_381: makeCurve('bls12_381', bls12_381) };
  process.stdout.write(JSON.stringify(out, null, 1) + '\n');
} catch (err) {
  process.stderr.write(`noble_vectors: ${err && err.stack ? err.stack : err}\n`);
  process.exit(1);
}
