import { changeRule } from '../rule';

export const requestHeaderRequiredAdded = changeRule({
  id: 'request-header-required-added',
  side: 'request',
  kind: 'missing',
  targets: ['header'],
  noMirror: {
    'response-header-required-added': 'clients ignore response headers they do not know, so a new response header is compatible',
    'request-header-required-removed': 'undeclared request headers are ignored, so dropping a request header is compatible',
  },
});
