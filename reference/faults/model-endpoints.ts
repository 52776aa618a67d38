import type { FaultDeclaration } from './index.ts';

/** Faults of the reference in model endpoints behaviour; each breaks the requirements it names and nothing else. */
export const MODEL_ENDPOINTS_FAULTS: readonly FaultDeclaration[] = [
  {
    name: 'models-no-data-wrapper',
    operation: 'listModelEndpoints',
    breaks: ['models.response.data-wrapper'],
    description: '4.2: the 200 body is the model itself instead of { data: model }.',
  },
  {
    name: 'models-wrapper-extra-field',
    operation: 'listModelEndpoints',
    breaks: ['models.response.one-field'],
    description: '4.2 "an object with one field `data`": the 200 body also carries a links object beside data.',
  },
  {
    name: 'models-no-endpoints',
    operation: 'listModelEndpoints',
    breaks: ['models.model.fields-present'],
    description: '4.2 "a model with endpoints (2.3)": the model is answered without its endpoints field.',
  },
  {
    name: 'models-no-description',
    operation: 'listModelEndpoints',
    breaks: ['models.model.fields-present'],
    description:
      "2.3 lists description among the model's fields and no word leaves its presence open (2.4 does so for endpoint fields only): the model is answered without it.",
  },
  {
    name: 'models-pricing-fifth-field',
    operation: 'listModelEndpoints',
    breaks: ['models.endpoint.pricing-decimal-strings'],
    description:
      '2.4 "Four fields `prompt`, `completion`, `request`, `image`": every pricing object also carries a fifth decimal string, discount (a count binds as 4.2\'s "one field" does).',
  },
  {
    name: 'models-architecture-modalities-string',
    operation: 'listModelEndpoints',
    breaks: ['models.model.schema'],
    description: '2.3: architecture.input_modalities is a comma-joined string instead of an array of string.',
  },
  {
    name: 'models-architecture-no-instruct-type',
    operation: 'listModelEndpoints',
    breaks: ['models.model.fields-present'],
    description:
      '2.3: architecture leaves out instruct_type, a field 2.3 lists; 2.4 leaves its nullability open (null passes), not its presence (decision architecture-null-not-absent).',
  },
  {
    name: 'models-id-without-author',
    operation: 'listModelEndpoints',
    breaks: ['models.model.id-shape'],
    description: '2.3: the model id is the slug alone, without <author>/.',
  },
  {
    name: 'models-other-model-returned',
    operation: 'listModelEndpoints',
    breaks: ['models.model.id-matches-path'],
    description: '4.2: the path names one model and another (well-formed) model is returned.',
  },
  {
    name: 'models-created-millis',
    operation: 'listModelEndpoints',
    breaks: ['models.model.created-seconds'],
    description: '2.3: created is a Unix timestamp in milliseconds instead of seconds.',
  },
  {
    name: 'models-modality-arrow-missing',
    operation: 'listModelEndpoints',
    breaks: ['models.architecture.modality-shape'],
    description: '2.3: architecture.modality is written "<input> to <output>" instead of "<input>-><output>".',
  },
  {
    name: 'models-endpoint-context-length-string',
    operation: 'listModelEndpoints',
    breaks: ['models.endpoint.schema'],
    description: '2.4: context_length of every endpoint is a string of digits instead of an integer.',
  },
  {
    name: 'models-pricing-numbers',
    operation: 'listModelEndpoints',
    breaks: ['models.endpoint.pricing-decimal-strings'],
    description: '2.4: the four pricing fields are JSON numbers instead of strings holding a decimal number.',
  },
  {
    name: 'models-percentile-strings',
    operation: 'listModelEndpoints',
    breaks: ['models.endpoint.percentiles'],
    description: '2.4: p50/p75/p90/p99 of latency_last_30m are strings instead of numbers.',
  },
  {
    name: 'models-uptime-strings',
    operation: 'listModelEndpoints',
    breaks: ['models.endpoint.uptime-numbers'],
    description: '2.4: uptime_last_5m/30m/1d are strings instead of numbers.',
  },
  {
    name: 'models-forbidden-error-no-code',
    operation: 'listModelEndpoints',
    breaks: ['models.forbidden-model-error', 'models.errors.shape'],
    description:
      '5 rule 3 / 7: the 403 for a model of another workspace has an error object without `code` (section 7: "| error.code | integer, or string on some operations | yes | |").',
  },
  {
    name: 'models-unknown-200',
    operation: 'listModelEndpoints',
    breaks: ['models.unknown-model-error', 'models.unknown-model-404'],
    description: '4.2 / 7.2: a model that does not exist gets 200 with an empty model instead of 404.',
  },
];
