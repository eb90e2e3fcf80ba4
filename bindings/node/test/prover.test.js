'use strict';
// cuzk.Prover: keys loaded once and shared by many proofs in flight at once,
// their descriptions (info, verification key), and close().
const assert = require('node:assert/strict');
const fs = require('node:fs');
const { test, after } = require('node:test');
const { cuzk, snarkjs, CPU, fixture, readJson, releaseSnarkjs } = require('./fixtures.js');

after(releaseSnarkjs);

test('keys load from a file (id: its stem) and from bytes (id: the given one)', async () => {
  const prover = new cuzk.Prover(CPU);
  try {
    assert.equal(await prover.loadKey(fixture('bn128', 'circuit.zkey')), 'circuit');
    assert.equal(await prover.loadKey(fs.readFileSync(fixture('bls12381', 'circuit.zkey')), 'bls'), 'bls');
    for (const [id, curve] of [['circuit', 'bn128'], ['bls', 'bls12381']]) {
      const info = prover.keyInfo(id);
      assert.equal(info.curve, curve);
      assert.equal(info.nPublic, readJson(curve, 'public.json').length);
      assert.ok(info.nVars > info.nPublic, `nVars ${info.nVars}`);
      assert.ok(info.domainSize >= 2 && (info.domainSize & (info.domainSize - 1)) === 0, `domain ${info.domainSize}`);
      assert.deepEqual(prover.exportVerificationKey(id), readJson(curve, 'vk.json'));
    }
    assert.match(prover.describe(), /CPU/i);
  } finally {
    prover.close();
  }
});

test('8 proofs of both curves in flight at once on one prover all verify', async () => {
  const prover = new cuzk.Prover({ ...CPU, synthesisThreads: 2 });
  try {
    const keys = {
      bn128: await prover.loadKey(fixture('bn128', 'circuit.zkey'), 'bn'),
      bls12381: await prover.loadKey(fixture('bls12381', 'circuit.zkey'), 'bls'),
    };
    const jobs = [];
    for (let i = 0; i < 8; ++i) {
      const curve = i % 2 ? 'bls12381' : 'bn128';
      const wtns = i % 4 < 2 ? fixture(curve, 'witness.wtns') : fs.readFileSync(fixture(curve, 'witness.wtns'));
      jobs.push(prover.prove(keys[curve], wtns).then((r) => ({ curve, ...r })));
    }
    const results = await Promise.all(jobs);
    for (const { curve, proof, publicSignals, times } of results) {
      assert.equal(await snarkjs.groth16.verify(readJson(curve, 'vk.json'), publicSignals, proof), true);
      for (const stage of ['queue', 'synthesis', 'prove', 'finish', 'total']) {
        assert.ok(times[stage] >= 0 && times[stage] <= times.total, `${stage}: ${times[stage]} of ${times.total}`);
      }
      assert.ok(times.total > 0);
    }
  } finally {
    prover.close();
  }
});

test('close() is idempotent; a proof in flight still finishes; later calls fail', async () => {
  const prover = new cuzk.Prover(CPU);
  const id = await prover.loadKey(fixture('bn128', 'circuit.zkey'));
  const inFlight = prover.prove(id, fixture('bn128', 'witness.wtns'));
  prover.close();
  prover.close();
  const { proof, publicSignals } = await inFlight;
  assert.equal(await snarkjs.groth16.verify(readJson('bn128', 'vk.json'), publicSignals, proof), true);
  // Each with the code libcuzk's service gives a call once it is shutting down.
  const closed = (e) => e instanceof Error && e.code === 'unavailable' && e.message === 'cuzk: the prover is closed';
  await assert.rejects(prover.prove(id, fixture('bn128', 'witness.wtns')), closed);
  await assert.rejects(prover.loadKey(fixture('bn128', 'circuit.zkey')), closed);
  assert.throws(() => prover.keyInfo(id), closed);
  assert.throws(() => prover.exportVerificationKey(id), closed);
  assert.throws(() => prover.describe(), closed);
});
