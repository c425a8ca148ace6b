/** One row of the "Send command" form's parameters: a name, a value as typed, and how to read the value. */
export interface ParamRow {
  name: string;
  value: string;
  kind: 'text' | 'number' | 'boolean';
}

export type CommandParams = Record<string, string | number | boolean>;

/** The contract's limits on a command's params (DeviceCommandParams): names up to 60 characters, text up to 1000. */
const NAME_MAX = 60;
const TEXT_MAX = 1000;

/**
 * The form's rows as the command's `params` (flat string, number or boolean values; the contract sets no per-command
 * rule), or the problems to fix, one `name: message` line each as the server words them. Rows with neither name nor
 * value are ignored; no rows at all means no params.
 */
export function toCommandParams(rows: readonly ParamRow[]): { params?: CommandParams; errors: string[] } {
  const params: CommandParams = {};
  const errors: string[] = [];
  rows.forEach((row, index) => {
    const name = row.name.trim();
    if (name === '' && row.value.trim() === '') return;
    const at = name === '' ? `params.${index + 1}` : `params.${name}`;
    if (name === '') return void errors.push(`${at}: The name field is required.`);
    if (name.length > NAME_MAX) return void errors.push(`${at}: Must be at most ${NAME_MAX} characters`);
    if (Object.hasOwn(params, name)) return void errors.push(`${at}: Must be unique`);
    if (row.kind === 'number') {
      const number = Number(row.value.trim());
      if (row.value.trim() === '' || !Number.isFinite(number)) return void errors.push(`${at}: Please provide a valid number for the field.`);
      params[name] = number;
    } else if (row.kind === 'boolean') {
      if (row.value !== 'true' && row.value !== 'false') return void errors.push(`${at}: Please provide a valid boolean for the field.`);
      params[name] = row.value === 'true';
    } else {
      if (row.value.length > TEXT_MAX) return void errors.push(`${at}: Must be at most ${TEXT_MAX} characters`);
      params[name] = row.value;
    }
  });
  return Object.keys(params).length === 0 || errors.length > 0 ? { errors } : { params, errors };
}
