import { changeRule } from '../rule';

export const responseHeaderRemoved = changeRule({
  id: 'response-header-removed',
  side: 'response',
  kind: 'missing',
  targets: ['header'],
  noMirror: {
    'request-header-removed': 'undeclared request headers are ignored, so dropping a request header is compatible',
    'response-header-added': 'clients ignore response headers they do not know, so a new one is compatible',
  },
});
