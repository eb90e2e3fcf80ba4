'use strict';
// Bad input: libcuzk's message and status reach JS as an Error with `code`;
// an argument of the wrong type is a TypeError before anything runs.
const assert = require('node:assert/strict');
const crypto = require('node:crypto');
const fs = require('node:fs');
const { test, before, after } = require('node:test');
const { cuzk, CPU, fixture, readJson } = require('./fixtures.js');

let prover;
let key;
before(async () => {
  prover = new cuzk.Prover(CPU);
  key = await prover.loadKey(fixture('bn128', 'circuit.zkey'));
});
after(() => prover.close());

// An Error (not a TypeError) with the given code and a message matching `message`.
function failure(code, message) {
  return (e) => {
    assert.ok(e instanceof Error && !(e instanceof TypeError), `${e}`);
    assert.equal(e.code, code, `code of: ${e.message}`);
    assert.match(e.message, message);
    return true;
  };
}

test('a truncated witness', async () => {
  const wtns = fs.readFileSync(fixture('bn128', 'witness.wtns'));
  await assert.rejects(prover.prove(key, wtns.subarray(0, wtns.length - 40)), failure('invalid_argument', /claims \d+ bytes but only \d+ remain/));
});

test('random bytes as a witness and as a key', async () => {
  const noise = crypto.randomBytes(4096);
  await assert.rejects(prover.prove(key, noise), failure('invalid_argument', /wrong magic: not a "wtns" file/));
  await assert.rejects(prover.loadKey(noise), failure('invalid_argument', /wrong magic: not a "zkey" file/));
  await assert.rejects(cuzk.groth16.prove(noise, fixture('bn128', 'witness.wtns'), CPU),
                       failure('invalid_argument', /wrong magic: not a "zkey" file/));
});

test("the other curve's witness", async () => {
  await assert.rejects(prover.prove(key, fixture('bls12381', 'witness.wtns')),
                       failure('invalid_argument', /is a bls12381 witness but .* is a bn128 key/));
});

test('an empty witness, a missing file, an unknown key', async () => {
  await assert.rejects(prover.prove(key, Buffer.alloc(0)), failure('invalid_argument', /0 bytes, too short/));
  const missing = fixture('bn128', 'no-such.wtns');
  await assert.rejects(prover.prove(key, missing), failure('not_found', /no-such\.wtns: cannot open/));
  await assert.rejects(prover.prove('no-such-key', fixture('bn128', 'witness.wtns')),
                       failure('not_found', /no key no-such-key/));
});

test('malformed verify inputs reject; a backend that does not exist throws', async () => {
  const vk = readJson('bn128', 'vk.json');
  const proof = readJson('bn128', 'proof.json');
  const publicSignals = readJson('bn128', 'public.json');
  const offCurve = { ...proof, pi_a: ['1', '3', '1'] };
  await assert.rejects(cuzk.groth16.verify(vk, publicSignals, offCurve),
                       failure('invalid_argument', /pi_a: point is not on the curve/));
  await assert.rejects(cuzk.groth16.verify(vk, publicSignals.slice(1), proof),
                       failure('invalid_argument', /1 values, but the key expects 2/));
  await assert.rejects(cuzk.groth16.verify(readJson('bls12381', 'vk.json'), publicSignals, proof),
                       failure('invalid_argument', /for bn128, not bls12381/));
  assert.throws(() => new cuzk.Prover({ backend: 'tpu' }), failure('invalid_argument', /tpu/));
});

test('arguments of the wrong type are TypeErrors', () => {
  const wtns = fixture('bn128', 'witness.wtns');
  assert.throws(() => cuzk.groth16.prove(42, wtns), TypeError);
  assert.throws(() => cuzk.groth16.prove(fixture('bn128', 'circuit.zkey'), [1, 2, 3]), TypeError);
  assert.throws(() => cuzk.groth16.prove(fixture('bn128', 'circuit.zkey'), wtns, 'cpu'), TypeError);
  assert.throws(() => prover.prove(key, 42), TypeError);
  assert.throws(() => prover.prove(7, wtns), TypeError);
  assert.throws(() => prover.loadKey(null), TypeError);
  assert.throws(() => prover.loadKey(fixture('bn128', 'circuit.zkey'), 5), TypeError);
  assert.throws(() => prover.keyInfo(), TypeError);
  assert.throws(() => new cuzk.Prover({ threads: -1 }), TypeError);
  assert.throws(() => new cuzk.Prover({ threads: 1.5 }), TypeError);
  assert.throws(() => new cuzk.Prover({ gpus: [0, 'x'] }), TypeError);
  assert.throws(() => new cuzk.Prover({ backend: 1 }), TypeError);
  assert.throws(() => new cuzk.Prover({ thread: 2 }), /unknown option 'thread'/);
  assert.throws(() => cuzk.groth16.verify('vk', [], {}), TypeError);
  assert.throws(() => cuzk.groth16.verify({}, '1', {}), TypeError);
  assert.throws(() => cuzk.groth16.verify({}, [1n], {}), TypeError);
});
