// @ts-check
'use strict';
// For `setupFilesAfterEnv`: installs accord's matchers (toHaveReceived, toHaveNoUnmatchedRequests) on Jest's expect.
// eslint-disable-next-line no-undef -- expect is Jest's global in a setup file
expect.extend(require('../dist/index.js').accordMatchers);
