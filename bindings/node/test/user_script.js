'use strict';
// A user's script in a project of its own (install_test.sh): 'cuzk' is the
// package npm installed there, fullProve proves the multiplier circuit of
// both curves from its input, wasm and zkey, and snarkjs verifies each proof.
//   node user_script.js FIXTURES_DIR
const assert = require('assert/strict');
const fs = require('fs');
const path = require('path');
const cuzk = require('cuzk');
const snarkjs = require('snarkjs');

async function main(fixtures) {
  assert.equal(path.relative(process.cwd(), require.resolve('cuzk')), path.join('node_modules', 'cuzk', 'lib', 'index.js'));
  for (const curve of ['bn128', 'bls12381']) {
    const file = (name) => path.join(fixtures, curve, 'multiplier', name);
    const input = JSON.parse(fs.readFileSync(file('input.json'), 'utf8'));
    const { proof, publicSignals } = await cuzk.groth16.fullProve(input, file('circuit.wasm'), file('circuit.zkey'),
                                                                   { backend: 'cpu' });
    const vk = JSON.parse(fs.readFileSync(file('vk.json'), 'utf8'));
    assert.equal(await snarkjs.groth16.verify(vk, publicSignals, proof), true, `${curve}: snarkjs rejects the proof`);
    console.log(`${curve}: fullProve's proof verifies with snarkjs`);
    // snarkjs's curve keeps worker threads, and so the process, alive.
    await globalThis[`curve_${curve}`].terminate();
  }
}

main(process.argv[2]).catch((e) => {
  console.error(e);
  process.exit(1);
});
