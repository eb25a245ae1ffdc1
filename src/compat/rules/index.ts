import type { Rule } from '../model';
import { scenarioRemoved } from './scenario-removed';
import { statusChanged } from './status-changed';
import { requestDerivedTypeRemoved } from './request-derived-type-removed';
import { requestFieldRemoved } from './request-field-removed';
import { requestFieldRequiredAdded } from './request-field-required-added';
import { requestHeaderMadeRequired } from './request-header-made-required';
import { requestHeaderRequiredAdded } from './request-header-required-added';
import { requestNodeAnyNameRemoved } from './request-node-any-name-removed';
import { requestNodeMadeNonNillable } from './request-node-made-non-nillable';
import { requestNodeMadeRequired } from './request-node-made-required';
import { requestNodeMadeSingle } from './request-node-made-single';
import { requestNodeOrderChanged } from './request-node-order-changed';
import { requestNodeRemoved } from './request-node-removed';
import { requestNodeRequiredAdded } from './request-node-required-added';
import { requestObjectClosed } from './request-object-closed';
import { requestQueryRemoved } from './request-query-removed';
import { requestTypeChanged } from './request-type-changed';
import { requestTypeNarrowed } from './request-type-narrowed';
import { responseDerivedTypeAdded } from './response-derived-type-added';
import { responseHeaderMadeOptional } from './response-header-made-optional';
import { responseHeaderRemoved } from './response-header-removed';
import { responseNodeAdded } from './response-node-added';
import { responseNodeAnyNameAdded } from './response-node-any-name-added';
import { responseNodeMadeNillable } from './response-node-made-nillable';
import { responseNodeMadeOptional } from './response-node-made-optional';
import { responseNodeMadeRepeated } from './response-node-made-repeated';
import { responseNodeOrderChanged } from './response-node-order-changed';
import { responseNodeRemoved } from './response-node-removed';
import { responseObjectOpened } from './response-object-opened';
import { responseTypeChanged } from './response-type-changed';
import { responseTypeWidened } from './response-type-widened';

/** Every rule, in report order: scenario rules first, then request, then response. */
export const RULES: readonly Rule[] = [
  scenarioRemoved,
  statusChanged,
  requestDerivedTypeRemoved,
  requestFieldRemoved,
  requestFieldRequiredAdded,
  requestHeaderMadeRequired,
  requestHeaderRequiredAdded,
  requestNodeAnyNameRemoved,
  requestNodeMadeNonNillable,
  requestNodeMadeRequired,
  requestNodeMadeSingle,
  requestNodeOrderChanged,
  requestNodeRemoved,
  requestNodeRequiredAdded,
  requestObjectClosed,
  requestQueryRemoved,
  requestTypeChanged,
  requestTypeNarrowed,
  responseDerivedTypeAdded,
  responseHeaderMadeOptional,
  responseHeaderRemoved,
  responseNodeAdded,
  responseNodeAnyNameAdded,
  responseNodeMadeNillable,
  responseNodeMadeOptional,
  responseNodeMadeRepeated,
  responseNodeOrderChanged,
  responseNodeRemoved,
  responseObjectOpened,
  responseTypeChanged,
  responseTypeWidened,
];

export const RULES_BY_ID: ReadonlyMap<string, Rule> = new Map(RULES.map((r) => [r.id, r]));
