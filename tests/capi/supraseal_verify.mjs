#!/usr/bin/env node
// snarkjs checks the proofs that supraseal_abi.c wrote through the supraseal
// ABI: each DIR/proof-K.bin (bellperson's Proof<Bls12> in memory: affine
// points, Fp as 6 little-endian u64 limbs in Montgomery form, Fp2 c0 then c1)
// is decoded here, independently of cuzk, into snarkjs's proof.json, and
// must verify under DIR/vk.json with DIR/public-K.json; tampered copies (its
// A in place of its C, another circuit's public inputs) must not.
//   node supraseal_verify.mjs DIR CIRCUITS
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as snarkjs from "snarkjs";

const [dir, circuitsArg] = process.argv.slice(2);
const circuits = Number(circuitsArg);
if (!dir || !(circuits > 0)) {
  console.error("usage: node supraseal_verify.mjs DIR CIRCUITS");
  process.exit(2);
}

const p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaabn;
const power = (b, e) => {
  let r = 1n;
  for (b %= p; e > 0n; e >>= 1n, b = (b * b) % p) if (e & 1n) r = (r * b) % p;
  return r;
};
const rInverse = power(1n << 384n, p - 2n);

// One Fp at byte offset `at`: Montgomery limbs to the canonical integer.
const fp = (bytes, at) => {
  let v = 0n;
  for (let i = 5; i >= 0; --i) v = (v << 64n) | bytes.readBigUInt64LE(at + 8 * i);
  if (v >= p) throw new Error(`an Fp at byte ${at} is not below p`);
  return (v * rInverse) % p;
};
const g1 = (bytes, at) => {
  const [x, y] = [fp(bytes, at), fp(bytes, at + 48)];
  return x === 0n && y === 0n ? ["0", "1", "0"] : [x.toString(), y.toString(), "1"];
};
const g2 = (bytes, at) => {
  const c = [0, 1, 2, 3].map((i) => fp(bytes, at + 48 * i).toString());
  return [[c[0], c[1]], [c[2], c[3]], ["1", "0"]];
};

const vk = JSON.parse(readFileSync(join(dir, "vk.json"), "utf8"));
const publics = [...Array(circuits).keys()].map((k) => JSON.parse(readFileSync(join(dir, `public-${k}.json`), "utf8")));
let failed = 0;
const expect = async (what, want, proof, pub) => {
  const got = await snarkjs.groth16.verify(vk, pub, proof);
  if (got !== want) {
    console.error(`supraseal_verify: ${what}: verify says ${got}, expected ${want}`);
    ++failed;
  }
};
for (let k = 0; k < circuits; ++k) {
  const bytes = readFileSync(join(dir, `proof-${k}.bin`));
  if (bytes.length !== 384) throw new Error(`proof-${k}.bin has ${bytes.length} bytes, not 384`);
  const proof = { pi_a: g1(bytes, 0), pi_b: g2(bytes, 96), pi_c: g1(bytes, 288), protocol: "groth16", curve: "bls12381" };
  await expect(`proof ${k}`, true, proof, publics[k]);
  await expect(`proof ${k} with its A as C`, false, { ...proof, pi_c: proof.pi_a }, publics[k]);
  if (circuits > 1 && publics[k].length > 0)
    await expect(`proof ${k} with circuit ${(k + 1) % circuits}'s inputs`, false, proof, publics[(k + 1) % circuits]);
}
if (failed) process.exit(1);
console.log(`supraseal_verify: ${circuits} proofs verify in snarkjs; their tampered copies do not`);
process.exit(0);
