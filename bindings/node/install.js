'use strict';
// npm's install script: cmake-js builds build/Release/cuzk.node against an
// installed libcuzk (CMakeLists.txt finds it).
//
// cmake-js is found the way Node finds a module from this folder, not on
// PATH, because of how npm installs a folder: `npm install <folder>` links
// node_modules/cuzk to the folder (install-links is false by default) and
// does not install a linked package's dependencies; it runs this script in
// the folder itself, where only a node_modules above it can hold cmake-js and
// node-addon-api. In cuzk's tree that is the root one, whose package.json
// lists both (npm ci there, as scripts/setup.sh does). A tarball (`npm pack`),
// or a folder installed with --install-links, is copied into node_modules and
// gets its dependencies beside it.
const { spawnSync } = require('child_process');

let cmakeJs;
try {
  cmakeJs = require.resolve('cmake-js/bin/cmake-js');
} catch {
  console.error(`cuzk: cmake-js is not installed where ${__dirname} can find it (npm links a folder without ` +
                "installing its dependencies): run `npm ci` in cuzk's root first, or install the folder with " +
                '`npm install --install-links`, or install the tarball `npm pack` makes of it');
  process.exit(1);
}
const { status, error } = spawnSync(process.execPath, [cmakeJs, 'compile'], { stdio: 'inherit' });
if (error) console.error(`cuzk: cannot run cmake-js: ${error.message}`);
process.exit(status ?? 1);
