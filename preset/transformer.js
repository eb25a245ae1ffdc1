'use strict';
const path = require('node:path');
const { transformSpec, cacheKey } = require('../dist/runner/transform.js');
const { version } = require('../package.json');

const runtimePath = path.join(__dirname, '..', 'dist', 'runner', 'runtime.js');

function createTransformer() {
  return {
    canInstrument: false,
    getCacheKey(sourceText, sourcePath, options) {
      return cacheKey(sourceText, sourcePath, (options && options.configString) || '', `${version}:${runtimePath}`);
    },
    process(sourceText, sourcePath) {
      return { code: transformSpec(sourceText, sourcePath, runtimePath) };
    },
  };
}

module.exports = { createTransformer, ...createTransformer() };
