// @ts-check
'use strict';
const { statSync } = require('node:fs');
const path = require('node:path');
const { transformSpec, cacheKey } = require('../dist/preset-api.js').transformer();
const { version } = require('../package.json');

const dist = path.join(__dirname, '..', 'dist');
const runtimePath = path.join(dist, 'runner', 'runtime.js');

/**
 * What the generated code depends on besides the .spec text and Jest's options: accord's
 * version, and the build of every accord module the transform loaded (parser, model, the
 * transform itself), by size and time, so a rebuild of a checkout without a version bump
 * never runs a stale cached transform. Computed once per worker.
 */
function buildFingerprint() {
  const parts = [version, runtimePath];
  for (const file of Object.keys(require.cache).sort()) {
    if (!file.startsWith(dist + path.sep)) continue;
    const st = statSync(file);
    parts.push(`${path.relative(dist, file)}:${st.size}:${st.mtimeMs}`);
  }
  return parts.join('\n');
}

let fingerprint;

function createTransformer() {
  return {
    canInstrument: false,
    getCacheKey(sourceText, sourcePath, options) {
      fingerprint ??= buildFingerprint();
      return cacheKey(sourceText, sourcePath, (options && options.configString) || '', fingerprint);
    },
    process(sourceText, sourcePath) {
      return { code: transformSpec(sourceText, sourcePath, runtimePath) };
    },
  };
}

module.exports = { createTransformer, ...createTransformer() };
