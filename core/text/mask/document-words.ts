/**
 * The words of the service document and of the suite's outputs of SAFE_KEY_CHARS characters or more
 * (a shorter key is weak by its length alone): the property and parameter names, enum values, path
 * segments and component names of spec/openapi.yaml, the parts of the requirement and check ids, and
 * the field names of report.json and of the target file. A key that is one of them is masked only where
 * it stands as the key (./weak-keys.ts). Derived from their sources by test/support/document-words.ts:
 * test/weak-keys.test.ts fails, naming the word, when one is missing here or no longer derived.
 */
export const DOCUMENT_WORDS: ReadonlySet<string> = new Set(
  `
  any-file-id architecture attached_vault_id awaiting_chat_install base-url-v1 bearer-accepted bearerauth
  bounds-accepted budgetexhausted code-equals-status code-integer completion concurrency conformant container
  container-id container-id-echo container_id containerfile containerfilelist containerfiles containerfileserror
  containerid containers context_length control-char-paths counterexample coverage created-at-seconds created-seconds
  created_at createdat cursor-walk cursorparam data-wrapper deadline decimalstring default-maximum default-value
  description destroy_failed destroying disabled documented-status durationms empty-container emptycontainerid
  endpoint endpoints entrydigests error-shape evidence exchange exchanges failureevidence failures field-types
  fields-present filesafter fileslimit filter-and-size filter-combinations first-id first_id forbidden-model-error
  forbiddenmodel harentry has_more hasrestrictedkey hostname hostname-label-name hostname-name hostname-shape
  id-encodes-path id-matches-path id-shape id-url-safe-alphabet incomplete input_modalities instruct_type instructions
  integer-spelling internal_error internlist internserror internslimit internsstatus internstatus internsworkspaceid
  interpretation invalid-401 invalid-inputs invalid-query invalid-rejected invalid_body json-body json-media-type
  key-kind key-kind-per-operation keyssentto last-id-is-last-listed last-id-when-has-more lastfailuremessage
  latency_last_30m limit-independent listcontainerfiles listed-unusual-paths listingcut listinterns listmodelendpoints
  malformed malformed-401 malformed-credentials malformed-refused malformed-rejected max-failures
  max_completion_tokens max_prompt_tokens maxrequests media-type mergedshards metadata mismatch-no-fallback
  mismatch-refused missing-401 missingmodel modality modality-shape model-shape model_id model_name modelarchitecture
  modelendpoints modelendpointserror modelendpointsresponse mustnotjudged negotiation newest-first newest-prefix
  next-page no-cursor no-prefix-rejected non-conformant non-integer non-integer-rejected not-reached not-selected
  not_found notjudged null-last-id nullability nullable-types observation observations observed one-field operation
  other-operations other-statuses otherworkspaceid out-of-range out-of-range-rejected output_modalities page-size
  pagination path-order path-relative percentiles pricing-decimal-strings pricing-fixed-point probecompleted progress
  property provider_name provisioning quantization rate-limit ratelimitedwaitms received regional-host-refused
  regionalbaseurl reportversion requests requestssaved requireall required-fields requirement requirementid
  requirements requirementstatus respected response restarted restartedcontainerid restricted restricted-403
  restrictedapikey run-limit scan-bound scan-bound-position service-metadata service_metadata short-page-at-scan-bound
  specdocument specversion spelling startedat statement status-value statuscounts strict-inputs strict-query
  strictly-after string-code-status supported_parameters supports_implicit_caching target-field targetview thresholds
  throughput_last_30m timestamps tokenizer transitions traversal truncated unknown-model unknown-model-404
  unknown-model-error unknown-rejected unspecified updatedat uptime-numbers uptime_last_1d uptime_last_30m
  uptime_last_5m uuid-fields vault_id versioning walks-agree warnings workspace workspace-of-key workspace_id
  workspaceid
`
    .split(/\s+/)
    .filter((w) => w !== ''),
);
