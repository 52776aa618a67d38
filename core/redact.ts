/** Replaces every secret value in text by its placeholder ($API_KEY, ...): applied to all evidence. */
export class Redactor {
  private readonly secrets: Array<{ value: string; placeholder: string }>;

  constructor(secrets: Array<{ value: string; placeholder: string }>) {
    this.secrets = [];
    this.add(secrets);
  }

  /** More secrets, e.g. forms derived from a key (its base64 inside a Basic header). */
  add(secrets: Array<{ value: string; placeholder: string }>): void {
    this.secrets.push(...secrets.filter((s) => s.value.length > 0));
    // Longest first, so a secret that contains another is replaced whole.
    this.secrets.sort((a, b) => b.value.length - a.value.length);
  }

  text(s: string): string {
    let out = s;
    for (const { value, placeholder } of this.secrets) out = out.split(value).join(placeholder);
    return out;
  }

  headers(h: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(h)) out[k] = this.text(v);
    return out;
  }
}
