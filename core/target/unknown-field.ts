/**
 * How a field name the target file schema does not know is said. The name is the file's content: a
 * target file that is a link to another file (a password file's `root:$6$...` line reads as a YAML
 * key) would otherwise print that content to the console, junit.xml and summary.md ("Hostile
 * input"). A name that looks like a field name (letters, digits, `_` and `-`, at most
 * MAX_SHOWN_FIELD_CHARS) is a slip worth showing, with the known name it resembles; any other name is
 * said by its position only (its object's path and its line), never shown.
 */
export const MAX_SHOWN_FIELD_CHARS = 32;

const FIELD_NAME = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_SHOWN_FIELD_CHARS}}$`);

export function showableFieldName(name: string): boolean {
  return FIELD_NAME.test(name);
}

/** `unknown field ...` for a name that is not shown: where it is, how long it is, and what it may mean. */
export function unshownFieldText(parent: string, name: string, line: number | undefined): string {
  const where = [parent ? `in ${parent}` : 'at the top level', line !== undefined ? `at line ${line}` : '']
    .filter(Boolean)
    .join(' ');
  return `unknown field ${where} (a name of ${[...name].length} characters that is no field name, not shown: is this file a target file?)`;
}
