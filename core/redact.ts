/** Replaces every secret value in text by its placeholder ($API_KEY, ...): applied to all evidence. */
export class Redactor {
  private readonly secrets: Array<{ value: string; placeholder: string }>;

  constructor(secrets: Array<{ value: string; placeholder: string }>) {
    // Longest first, so a key that contains another key is replaced whole.
    this.secrets = secrets.filter((s) => s.value.length > 0).sort((a, b) => b.value.length - a.value.length);
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
