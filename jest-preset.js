// @ts-check
'use strict';
module.exports = require('./preset/jest-preset.js');
