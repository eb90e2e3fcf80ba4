'use strict';
// cuzk for Node.js: the compiled addon (src/), found where it was built.
// `npm install` in this folder builds it with cmake-js into build/Release;
// cuzk's own CMake build puts it in its build tree and CTest names it in
// CUZK_NODE_ADDON.
const fs = require('fs');
const path = require('path');

const addon = process.env.CUZK_NODE_ADDON
  ? path.resolve(process.env.CUZK_NODE_ADDON)
  : path.join(__dirname, '..', 'build', 'Release', 'cuzk.node');
if (!fs.existsSync(addon)) {
  throw new Error(`cuzk: no addon at ${addon}: run \`npm install\` in bindings/node (cmake-js, against an ` +
                  'installed libcuzk), or set CUZK_NODE_ADDON to the cuzk.node of a cuzk build tree');
}
module.exports = require(addon);
