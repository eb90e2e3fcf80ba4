'use strict';
// cuzk.groth16 against snarkjs: cuzk's proofs verify with snarkjs on both
// curves, from files and from bytes; cuzk's verify agrees with snarkjs on a
// good proof and on a tampered one.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { test, after } = require('node:test');
const { cuzk, snarkjs, CURVES, CPU, fixture, readJson, releaseSnarkjs } = require('./fixtures.js');

after(releaseSnarkjs);

test('version and backends', () => {
  assert.equal(cuzk.version, require('../package.json').version);
  assert.ok(Array.isArray(cuzk.backends) && cuzk.backends.includes('cpu'), `backends: ${cuzk.backends}`);
});

for (const curve of CURVES) {
  const vk = readJson(curve, 'vk.json');

  test(`${curve}: a proof from file names verifies with snarkjs`, async () => {
    const { proof, publicSignals } = await cuzk.groth16.prove(fixture(curve, 'circuit.zkey'),
                                                              fixture(curve, 'witness.wtns'), CPU);
    assert.equal(proof.curve, curve);
    assert.equal(proof.protocol, 'groth16');
    assert.deepEqual(publicSignals, readJson(curve, 'public.json'));
    assert.equal(await snarkjs.groth16.verify(vk, publicSignals, proof), true);
  });

  test(`${curve}: a proof from Buffers verifies with snarkjs and with cuzk`, async () => {
    const zkey = fs.readFileSync(fixture(curve, 'circuit.zkey'));
    // A Uint8Array that is not a Buffer, over part of a larger ArrayBuffer.
    const wtnsBytes = fs.readFileSync(fixture(curve, 'witness.wtns'));
    const backing = new Uint8Array(wtnsBytes.length + 16);
    backing.set(wtnsBytes, 8);
    const wtns = backing.subarray(8, 8 + wtnsBytes.length);
    const { proof, publicSignals } = await cuzk.groth16.prove(zkey, wtns, CPU);
    assert.equal(await snarkjs.groth16.verify(vk, publicSignals, proof), true);
    assert.equal(await cuzk.groth16.verify(vk, publicSignals, proof), true);
  });

  test(`${curve}: cuzk.groth16.verify accepts snarkjs's proof and rejects a tampered one`, async () => {
    const proof = readJson(curve, 'proof.json');
    const publicSignals = readJson(curve, 'public.json');
    assert.equal(await cuzk.groth16.verify(vk, publicSignals, proof), true);
    const tampered = [...publicSignals];
    tampered[tampered.length - 1] = String(BigInt(tampered[tampered.length - 1]) + 1n);
    assert.equal(await cuzk.groth16.verify(vk, tampered, proof), false);
    assert.equal(await snarkjs.groth16.verify(vk, tampered, proof), false);
  });
}

test("backend 'auto' proves too (the GPU where there is one)", async () => {
  const { proof, publicSignals } = await cuzk.groth16.prove(fixture('bn128', 'circuit.zkey'),
                                                            fixture('bn128', 'witness.wtns'), { backend: 'auto' });
  assert.equal(await snarkjs.groth16.verify(readJson('bn128', 'vk.json'), publicSignals, proof), true);
});
