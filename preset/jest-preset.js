// @ts-check
'use strict';
module.exports = require('./create-preset').createPreset();
