import type { Occurs } from './types';

/** A node's occurrence inside a place that itself occurs `outer` times: the looser of the two. */
export function combineOccurs(outer: Occurs, own: Occurs): Occurs {
  if (outer === 'multiple' || own === 'multiple') return 'multiple';
  if (outer === 'optional' || own === 'optional') return 'optional';
  return 'once';
}
