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
  200 400 401 403 404 408 429 500 503 after any-file-id apikey architecture attached_vault_id auth author
  awaiting_chat_install base-url-v1 baseurl basis bearer bearer-accepted bearerauth body bounds-accepted budget
  budgetexhausted bytes cause check checkid checks code code-equals-status code-integer commit completion concurrency
  conformant container container-id container-id-echo container_id containerfile containerfilelist containerfiles
  containerfileserror containerid containers context_length control-char-paths count counterexample counts coverage
  created created-at-seconds created-seconds created_at createdat curl cursor-walk cursorparam cut data data-wrapper
  deadline decimalstring default default-maximum default-value description destroy_failed destroying disabled
  documented-status durationms empty-container emptycontainerid ended endpoint endpoints entries entrydigests error
  error-shape errors events evidence exchange exchanges fail failed failon failureevidence failures field field-types
  fields fields-present file files filesafter fileslimit filter filter-and-size filter-combinations first-id first_id
  forbidden-model-error forbiddenmodel general harentry has_more hasrestrictedkey headers hostname hostname-label-name
  hostname-name hostname-shape id id-encodes-path id-matches-path id-shape id-url-safe-alphabet image incomplete
  input_modalities instruct_type instructions integer-spelling intern internal_error internlist interns internserror
  internslimit internsstatus internstatus internsworkspaceid interpretation invalid invalid-401 invalid-inputs
  invalid-query invalid-rejected invalid_body json-body json-media-type key-kind key-kind-per-operation keyssentto
  kind last-id-is-last-listed last-id-when-has-more last_id lastfailuremessage latency_last_30m length level limit
  limit-independent list listcontainerfiles listed-unusual-paths listingcut listinterns listmodelendpoints malformed
  malformed-401 malformed-credentials malformed-refused malformed-rejected max-failures max_completion_tokens
  max_prompt_tokens maximum maxrequests media-type mergedshards message metadata method mismatch-no-fallback
  mismatch-refused missing missing-401 missingmodel modality modality-shape model model-shape model_id model_name
  modelarchitecture modelendpoints modelendpointserror modelendpointsresponse models must mustnotjudged name names
  negotiation newest-first newest-prefix next-page no-cursor no-prefix-rejected non-conformant non-integer
  non-integer-rejected not-reached not-selected not_found null-last-id nullability nullable-types numruns object
  observation observations observed of one-field operation order other-operations other-statuses otherworkspaceid
  out-of-range out-of-range-rejected output_modalities p50 p75 p90 p99 page-size pages pagination params partial pass
  path path-order path-relative percentiles prefix pricing pricing-decimal-strings pricing-fixed-point probecompleted
  progress prompt property provider_name provisioning proxy quantization queued quote rate-limit ratelimitedwaitms
  reason received regional-host-refused regionalbaseurl replay reportversion request requests requestssaved requireall
  required-fields requirement requirementid requirements requirementstatus respected response restarted
  restartedcontainerid restricted restricted-403 restrictedapikey retries run run-limit running sampled scan-bound
  scan-bound-position schema section seed service-metadata service_metadata sha256 shape shard
  short-page-at-scan-bound should skip slug source specdocument specversion spelling startedat statement states status
  status-value statuscounts stopped strict-inputs strict-query strictly-after string-code-status suite
  supported_parameters supports_implicit_caching tag target target-field targetview thresholds throughput_last_30m
  timeout timestamps title tokenizer transitions traversal truncated unknown unknown-model unknown-model-404
  unknown-model-error unknown-rejected unspecified updatedat uptime uptime-numbers uptime_last_1d uptime_last_30m
  uptime_last_5m url user_id uuid-fields value vault_id verdict version versioning walks-agree warnings workspace
  workspace-of-key workspace_id workspaceid
`
    .split(/\s+/)
    .filter((w) => w !== ''),
);
