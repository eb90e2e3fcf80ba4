#!/usr/bin/env node
// snarkjs checks many proofs of one verification key in one process (a
// process per proof costs a second of node's start-up each): every
// DIR/NAME-proof.json must verify with DIR/NAME-public.json, and, where it
// has public signals, must not with the first of them changed.
//   node snarkjs_verify_proofs.mjs VK DIR NAME...
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as snarkjs from "snarkjs";

const [vkPath, dir, ...names] = process.argv.slice(2);
if (!vkPath || !dir || names.length === 0) {
  console.error("usage: node snarkjs_verify_proofs.mjs VK DIR NAME...");
  process.exit(2);
}
const read = (path) => JSON.parse(readFileSync(path, "utf8"));
const vk = read(vkPath);
let failed = 0;
for (const name of names) {
  const proof = read(join(dir, `${name}-proof.json`)), publics = read(join(dir, `${name}-public.json`));
  if (!(await snarkjs.groth16.verify(vk, publics, proof))) {
    console.error(`${name}: snarkjs rejects the proof`);
    ++failed;
  }
  if (publics.length > 0) {
    const other = [(BigInt(publics[0]) + 1n).toString(), ...publics.slice(1)];
    if (await snarkjs.groth16.verify(vk, other, proof)) {
      console.error(`${name}: snarkjs accepts the proof with another public signal`);
      ++failed;
    }
  }
}
console.log(`${names.length - failed} of ${names.length} proofs as expected`);
process.exit(failed ? 1 : 0);
