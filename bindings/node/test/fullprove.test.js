'use strict';
// cuzk.groth16.fullProve against snarkjs: the witness its calculator computes
// from the circuit's wasm is snarkjs's byte for byte, the proof verifies with
// snarkjs on both curves, and every bad input rejects with a code and a
// one-line message naming the signal.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { test, after } = require('node:test');
const { WitnessCalculator } = require('../lib/witness.js');
const { cuzk, snarkjs, CURVES, CPU, fixture, readJson, releaseSnarkjs } = require('./fixtures.js');

after(releaseSnarkjs);

const CIRCUITS = ['multiplier', 'linear'];

function failure(code, message) {
  return (e) => {
    assert.ok(e instanceof Error && !(e instanceof TypeError), `${e}`);
    assert.equal(e.code, code, `code of: ${e.message}`);
    assert.match(e.message, message);
    assert.doesNotMatch(e.message, /\n/);
    return true;
  };
}

for (const curve of CURVES) {
  for (const circuit of CIRCUITS) {
    test(`${curve} ${circuit}: the witness is snarkjs wtns calculate's, byte for byte`, async () => {
      const wasm = fixture(curve, 'circuit.wasm', circuit);
      const input = readJson(curve, 'input.json', circuit);
      const expected = { type: 'mem' };
      await snarkjs.wtns.calculate(input, wasm, expected);
      const calculator = await WitnessCalculator.load(wasm);
      assert.equal(calculator.curve, curve);
      assert.deepEqual(calculator.wtns(input), Buffer.from(expected.data));
    });

    test(`${curve} ${circuit}: fullProve's proof verifies with snarkjs`, async () => {
      const { proof, publicSignals, ...rest } = await cuzk.groth16.fullProve(
        readJson(curve, 'input.json', circuit), fixture(curve, 'circuit.wasm', circuit),
        fixture(curve, 'circuit.zkey', circuit), CPU);
      assert.deepEqual(Object.keys(rest), []);
      assert.equal(proof.curve, curve);
      assert.deepEqual(publicSignals, readJson(curve, 'public.json', circuit));
      assert.equal(await snarkjs.groth16.verify(readJson(curve, 'vk.json', circuit), publicSignals, proof), true);
    });
  }
}

test('fullProve from Buffers, with BigInt, number and negative inputs', async () => {
  const curve = 'bls12381';
  const { a, k } = readJson(curve, 'input.json', 'linear');
  const calculator = await WitnessCalculator.load(fixture(curve, 'circuit.wasm', 'linear'));
  // -x is the field's p - x, as circom reads a negative input.
  const input = { a: a.map((v, i) => (i % 3 === 0 ? BigInt(v) : i % 3 === 1 ? Number(v) : String(BigInt(v) - calculator.prime))),
                  k };
  assert.deepEqual(calculator.wtns(input), fs.readFileSync(fixture(curve, 'witness.wtns', 'linear')));
  const { proof, publicSignals } = await cuzk.groth16.fullProve(
    input, fs.readFileSync(fixture(curve, 'circuit.wasm', 'linear')), fs.readFileSync(fixture(curve, 'circuit.zkey', 'linear')), CPU);
  assert.equal(await snarkjs.groth16.verify(readJson(curve, 'vk.json', 'linear'), publicSignals, proof), true);
});

for (const curve of CURVES) {
  test(`${curve}: each bad input rejects with invalid_argument, naming the signal`, async () => {
    const good = readJson(curve, 'input.json', 'linear');
    const prime = (await WitnessCalculator.load(fixture(curve, 'circuit.wasm', 'linear'))).prime;
    const fullProve = (input) => cuzk.groth16.fullProve(input, fixture(curve, 'circuit.wasm', 'linear'),
                                                        fixture(curve, 'circuit.zkey', 'linear'), CPU);
    const cases = [
      [{ ...good, b: '1' }, /input: b is not an input signal of the circuit/],
      [{ ...good, a: good.a.slice(1) }, /input: a has 39 values, the circuit's has 40/],
      [{ ...good, k: [good.k, good.k] }, /input: k has 2 values, the circuit's has 1/],
      [{ ...good, k: '0x10' }, /input: k is "0x10", not an integer/],
      [{ ...good, k: 1.5 }, /input: k is 1\.5, not an integer/],
      [{ ...good, a: good.a.map((v, i) => (i === 7 ? null : v)) }, /input: a\[7\] is null, not an integer/],
      [{ ...good, k: String(prime) }, new RegExp(`input: k = ${prime} is outside ${curve}'s scalar field`)],
      [{ ...good, a: good.a.map((v, i) => (i === 3 ? -prime : v)) }, /input: a\[3\] = -\d+ is outside/],
      [{ a: good.a }, /input: 40 of the circuit's 41 input values given/],
    ];
    for (const [input, message] of cases) await assert.rejects(fullProve(input), failure('invalid_argument', message));
    // One below the modulus is in the field: the input is accepted, the proof made.
    const { proof, publicSignals } = await fullProve({ ...good, k: String(prime - 1n) });
    assert.equal(publicSignals[1], String(prime - 1n));
    assert.equal(await snarkjs.groth16.verify(readJson(curve, 'vk.json', 'linear'), publicSignals, proof), true);
  });
}

test("a wasm of the other curve, a missing wasm, bytes that are not a circom wasm", async () => {
  const input = readJson('bn128', 'input.json');
  await assert.rejects(cuzk.groth16.fullProve(input, fixture('bn128', 'circuit.wasm'), fixture('bls12381', 'circuit.zkey'), CPU),
                       failure('invalid_argument', /circuit\.wasm computes bn128 witnesses, but .*circuit\.zkey is a bls12381 key/));
  await assert.rejects(cuzk.groth16.fullProve(input, fixture('bn128', 'no-such.wasm'), fixture('bn128', 'circuit.zkey'), CPU),
                       failure('not_found', /no-such\.wasm: cannot open \(ENOENT\)/));
  await assert.rejects(cuzk.groth16.fullProve(input, fs.readFileSync(fixture('bn128', 'circuit.zkey')), fixture('bn128', 'circuit.zkey'), CPU),
                       failure('invalid_argument', /the circuit wasm: not WebAssembly/));
  await assert.rejects(cuzk.groth16.fullProve(input, fixture('bn128', 'circuit.wasm'), fixture('bn128', 'no-such.zkey'), CPU),
                       failure('not_found', /no-such\.zkey: cannot open/));
});

test('arguments of the wrong type are TypeErrors, thrown at once', () => {
  const [wasm, zkey] = [fixture('bn128', 'circuit.wasm'), fixture('bn128', 'circuit.zkey')];
  assert.throws(() => cuzk.groth16.fullProve('{"a":3}', wasm, zkey), TypeError);
  assert.throws(() => cuzk.groth16.fullProve([3, 11], wasm, zkey), TypeError);
  assert.throws(() => cuzk.groth16.fullProve({ a: 3 }, 42, zkey), TypeError);
  assert.throws(() => cuzk.groth16.fullProve({ a: 3 }, wasm, null), TypeError);
  assert.throws(() => cuzk.groth16.fullProve({ a: 3 }, wasm, zkey, { thread: 1 }), /unknown option 'thread'/);
});
