import fc from 'fast-check';

/**
 * Authorization values that carry no valid key (section 5 rules 1-2): no scheme or another scheme,
 * an empty bearer, and bearer tokens the service cannot know. Only visible ASCII: anything else is not
 * a header value a client can send.
 */
export function malformedAuthorization(): fc.Arbitrary<{ header: string; kind: 'unknown-key' | 'malformed' }> {
  const token = fc.string({
    minLength: 8,
    maxLength: 48,
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.'),
  });
  const malformed = fc.oneof(
    // No empty value: an empty header reads as a missing one (5 rule 2), which the auth.missing checks
    // judge on their own; here it would make that requirement's status depend on the seed.
    fc.constantFrom('Bearer', 'Bearer ', 'Bearer  ', 'Basic', 'Token', 'null', 'undefined'),
    token.map((t) => `Basic ${Buffer.from(`${t}:`).toString('base64')}`),
    token.map((t) => `Token ${t}`),
    token,
  );
  return fc.oneof(
    malformed.map((header) => ({ header, kind: 'malformed' as const })),
    token.map((t) => ({ header: `Bearer unknown-${t}`, kind: 'unknown-key' as const })),
  );
}
