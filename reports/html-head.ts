import { esc } from './escape.ts';

/**
 * The opening of a self-contained page, up to its body: UTF-8, the Content-Security-Policy that
 * forbids everything the page does not carry inline, no referrer, the title (escaped) and the CSS.
 * Shared by report.html (reports/html.ts) and the comparison page (reports/diff-html.ts).
 */
export function htmlHead(title: string, csp: string, css: string): string[] {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${csp}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${esc(title)}</title>`,
    `<style>${css}</style>`,
    '</head>',
  ];
}
