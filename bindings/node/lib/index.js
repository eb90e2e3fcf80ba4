'use strict';
// cuzk for Node.js: the compiled addon (src/), found where it was built, and
// groth16.fullProve, which computes the witness in JS before the addon proves.
// `npm install` builds the addon with cmake-js into build/Release; cuzk's own
// CMake build puts it in its build tree and CTest names it in CUZK_NODE_ADDON.
const fs = require('fs');
const path = require('path');
const makeFullProve = require('./full_prove.js');

const addonPath = process.env.CUZK_NODE_ADDON
  ? path.resolve(process.env.CUZK_NODE_ADDON)
  : path.join(__dirname, '..', 'build', 'Release', 'cuzk.node');
if (!fs.existsSync(addonPath)) {
  throw new Error(`cuzk: no addon at ${addonPath}: run \`npm install\` in bindings/node (cmake-js, against an ` +
                  'installed libcuzk), or set CUZK_NODE_ADDON to the cuzk.node of a cuzk build tree');
}
const addon = require(addonPath);
addon.groth16.fullProve = makeFullProve(addon);
module.exports = addon;
